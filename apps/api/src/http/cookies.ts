/**
 * The panel's cookies (DESIGN §3): `lm.session`, the 2FA challenge `lm.two_factor` and `lm.trust_device`. All are
 * HttpOnly, SameSite=Lax, Path=/ and Secure unless `COOKIE_SECURE=false`. A cookie without an end (`rememberMe:
 * false`) lasts as long as the browser session; the server keeps its own, shorter, end.
 */
import type { CookieOptions, Request, Response } from "express";
import type { Config } from "@lm/config";
import { CHALLENGE_TTL_MS, type IssuedChallenge, type IssuedSession, type IssuedTrustedDevice } from "@lm/domain";

/** Names of the panel cookies. */
export const SESSION_COOKIE = "lm.session";
export const TWO_FACTOR_COOKIE = "lm.two_factor";
export const TRUST_DEVICE_COOKIE = "lm.trust_device";

const PANEL_COOKIES = [SESSION_COOKIE, TWO_FACTOR_COOKIE, TRUST_DEVICE_COOKIE];

function options(config: Pick<Config, "cookieSecure">): CookieOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: config.cookieSecure };
}

/**
 * Sets cookie `name` to `value`.
 * @param expiresAt - when the browser should drop it (Max-Age from `now`); null for a browser-session cookie
 */
export function setPanelCookie(
  res: Response,
  config: Pick<Config, "cookieSecure">,
  cookie: { name: string; value: string; expiresAt: Date | null; now: Date },
): void {
  const maxAge = cookie.expiresAt === null ? undefined : Math.max(0, cookie.expiresAt.getTime() - cookie.now.getTime());
  res.cookie(cookie.name, cookie.value, { ...options(config), ...(maxAge === undefined ? {} : { maxAge }) });
}

/** Tells the browser to drop cookie `name`. */
export function clearPanelCookie(res: Response, config: Pick<Config, "cookieSecure">, name: string): void {
  res.clearCookie(name, options(config));
}

/** The value of cookie `name`, if the request has a non-empty one. */
export function readCookie(req: Request, name: string): string | undefined {
  const value: unknown = req.cookies?.[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Whether the request carries any panel cookie (it is then authenticated by cookie for CSRF purposes). */
export function hasPanelCookie(req: Request): boolean {
  return PANEL_COOKIES.some((name) => readCookie(req, name) !== undefined);
}

/** Sets `lm.session` for a new session: Max-Age to its sliding end when persistent, a browser-session cookie if not. */
export function setSessionCookie(res: Response, config: Pick<Config, "cookieSecure">, issued: IssuedSession): void {
  const { session } = issued;
  const expiresAt = session.persistent ? session.expires_at : null;
  setPanelCookie(res, config, { name: SESSION_COOKIE, value: issued.token, expiresAt, now: session.last_seen_at });
}

/**
 * The cookies of a completed sign-in: the new session, the rotated or new trusted-device token if any, and the end
 * of a 2FA challenge cookie.
 */
export function setSignInCookies(
  res: Response,
  config: Pick<Config, "cookieSecure">,
  signedIn: { session: IssuedSession; trustedDevice: IssuedTrustedDevice | null },
): void {
  setSessionCookie(res, config, signedIn.session);
  const device = signedIn.trustedDevice;
  if (device) {
    const now = signedIn.session.session.created_at;
    setPanelCookie(res, config, { name: TRUST_DEVICE_COOKIE, value: device.token, expiresAt: device.expiresAt, now });
  }
  clearPanelCookie(res, config, TWO_FACTOR_COOKIE);
}

/** Sets `lm.two_factor` for a sign-in waiting for its second factor (Max-Age: the challenge's 10 minutes). */
export function setChallengeCookie(
  res: Response,
  config: Pick<Config, "cookieSecure">,
  challenge: IssuedChallenge,
): void {
  const now = new Date(challenge.expiresAt.getTime() - CHALLENGE_TTL_MS);
  setPanelCookie(res, config, { name: TWO_FACTOR_COOKIE, value: challenge.token, expiresAt: challenge.expiresAt, now });
}
