/**
 * Panel authentication middleware that every `/v1/me` route builds on (DESIGN §3): `requireSession` loads the
 * session of the `lm.session` cookie and its user, `requireRole` limits a route to operators or owners, and
 * `requireStepUp` guards the actions that need a recent second factor.
 */
import type { NextFunction, Request, Response } from "express";
import type { Session, User } from "@lm/db";
import { ApiError, authenticateSession, type ClientInfo } from "@lm/domain";
import type { AppDeps } from "../deps";
import { readCookie, SESSION_COOKIE, setPanelCookie } from "./cookies";
import { assertPanelOrigin } from "./csrf";

/**
 * The client's address (the socket's, or the one a trusted proxy reports when `TRUST_PROXY` is set), IPv4-mapped
 * IPv6 written as plain IPv4.
 */
export function clientIp(req: Request): string {
  return (req.ip ?? req.socket.remoteAddress ?? "unknown").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
}

/** Address and user agent of a sign-in, kept on the session. */
export function clientInfo(req: Request): ClientInfo {
  return { ipAddress: clientIp(req), userAgent: req.get("user-agent") ?? null };
}

/** What `requireSession` leaves on `res.locals.panel`. */
export interface PanelAuth {
  session: Session;
  user: User;
  /** The raw session token of the request's cookie (to re-set the cookie; never logged or returned). */
  token: string;
}

/**
 * The authenticated session and user of the request.
 * @throws Error when `requireSession` did not run first (a wiring mistake, not a client error)
 */
export function panelAuth(res: Response): PanelAuth {
  const auth = res.locals.panel as PanelAuth | undefined;
  if (!auth) throw new Error("requireSession must run before this handler");
  return auth;
}

/**
 * Loads the live session of the `lm.session` cookie onto `res.locals.panel`, slides it, and for state-changing
 * methods enforces the CSRF origin check. A sliding refresh re-sets a persistent cookie so its Max-Age follows.
 * @throws ApiError `authentication_required` (401) without a live session; `permission_denied` (403) for a
 *   state-changing request from an origin outside `PANEL_ORIGINS`
 */
export function requireSession(deps: Pick<AppDeps, "db" | "config" | "now">) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = readCookie(req, SESSION_COOKIE);
    const now = deps.now();
    const found = token === undefined ? null : await authenticateSession(deps.db, token, now);
    if (!found || token === undefined) throw new ApiError("authentication_required", "Sign in to use the panel.");
    assertPanelOrigin(req, deps.config);
    if (found.refreshed && found.session.persistent) {
      setPanelCookie(res, deps.config, { name: SESSION_COOKIE, value: token, expiresAt: found.session.expires_at, now });
    }
    res.locals.panel = { session: found.session, user: found.user, token } satisfies PanelAuth;
    next();
  };
}

/**
 * Limits a route to users of `role` (after {@link requireSession}).
 * @throws ApiError `permission_denied` (403) for any other role
 */
export function requireRole(role: User["role"]) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (panelAuth(res).user.role !== role) throw new ApiError("permission_denied", `This action needs the ${role} role.`);
    next();
  };
}

/**
 * Which step-up rule an action follows (DESIGN §3): `always` (API key create/rotate, webhook endpoint create,
 * withdrawals, payout-key changes, step-up-prefs change), or only while the seller's `webhook` / `account` toggle is on.
 */
export type StepUpKind = "always" | "webhook" | "account";

/**
 * Hook point for actions that need a recent step-up (after {@link requireSession}). The step-up itself arrives with
 * two-factor authentication; until then every action passes.
 */
export function requireStepUp(_deps: Pick<AppDeps, "db" | "now">, _kind: StepUpKind) {
  return (_req: Request, _res: Response, next: NextFunction): void => next();
}
