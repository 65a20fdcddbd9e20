/**
 * CSRF protection of the cookie-authenticated panel (DESIGN §3): a state-changing request that carries a panel
 * cookie must come from a panel origin, shown by its `Origin` header or, failing that, its `Referer`. The panel origins
 * are those of `PANEL_ORIGINS` and the API's own (`PUBLIC_BASE_URL`'s), which serves the dashboard (DESIGN §15).
 * Otherwise 403 `permission_denied` (a `permission_error`). Bodies are JSON only (the 415 rule of json-body.ts), so
 * a cross-site HTML form cannot post one anyway; this closes the rest.
 */
import type { NextFunction, Request, Response } from "express";
import type { Config } from "@lm/config";
import { ApiError, validationFailed } from "@lm/domain";
import { hasPanelCookie } from "./cookies";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | null {
  if (value === undefined || value === "null") return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** What the panel's origins are made of: `PANEL_ORIGINS` and `PUBLIC_BASE_URL`. */
type PanelOriginConfig = Pick<Config, "panelOrigins" | "publicBaseUrl">;

/**
 * The panel's origins: those of `PANEL_ORIGINS`, then the API's own (`PUBLIC_BASE_URL`'s) when it is not among them,
 * since the API serves the dashboard at `/dashboard` (DESIGN §15).
 */
export function panelOrigins(config: PanelOriginConfig): string[] {
  const own = originOf(config.publicBaseUrl);
  const listed = config.panelOrigins.map((allowed) => originOf(allowed) ?? allowed);
  return own === null || listed.includes(own) ? listed : [...listed, own];
}

/**
 * Whether `origin` is one of the panel's origins (compared after URL normalisation, so case and default ports match).
 * Also checks `callbackURL` / `redirectTo` values before they go into a mailed link or a redirect.
 */
export function isPanelOrigin(config: PanelOriginConfig, url: string): boolean {
  const origin = originOf(url);
  return origin !== null && panelOrigins(config).includes(origin);
}

/**
 * Checks a post-action destination (`callbackURL`, `redirectTo`, `redirect_to`) against the panel's origins.
 * @throws ApiError `validation_failed` naming `param` when it is elsewhere (an open redirect otherwise)
 */
export function assertPanelUrl(config: PanelOriginConfig, url: string | undefined, param: string): void {
  if (url !== undefined && !isPanelOrigin(config, url)) {
    throw validationFailed(`${param} must be on one of the panel's origins.`, param);
  }
}

/**
 * Refuses a state-changing request whose `Origin` (or `Referer`) is not a panel origin.
 * @throws ApiError `permission_denied` whose message names the origin received, the allowed ones and `PANEL_ORIGINS`,
 *   which sets them (DESIGN §6): a panel served from another port or host is told what to configure
 */
export function assertPanelOrigin(req: Request, config: PanelOriginConfig): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.get("origin");
  const source = origin ?? req.get("referer");
  if (source === undefined || !isPanelOrigin(config, source)) {
    const header = origin === undefined ? "Referer" : "Origin";
    const received = source === undefined ? "neither an Origin nor a Referer header" : `${header} ${shown(source)}`;
    throw new ApiError(
      "permission_denied",
      `Cross-site request refused: got ${received}; the allowed panel origins are ${panelOrigins(config).join(", ")}. ` +
        "The server's PANEL_ORIGINS setting (comma-separated) sets them, besides the API's own (PUBLIC_BASE_URL).",
    );
  }
}

/** A header value as a message quotes it: its origin when it has one, else the text itself, cut to 100 characters. */
function shown(value: string): string {
  const origin = originOf(value);
  return JSON.stringify(origin ?? (value.length > 100 ? `${value.slice(0, 100)}…` : value));
}

/** Middleware: {@link assertPanelOrigin} for requests that carry a panel cookie (routes usable without a session). */
export function csrfProtection(config: PanelOriginConfig) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (hasPanelCookie(req)) assertPanelOrigin(req, config);
    next();
  };
}
