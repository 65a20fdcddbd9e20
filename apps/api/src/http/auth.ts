/**
 * Panel authentication middleware that every `/v1/me` route builds on (DESIGN §3): `requireSession` loads the
 * session of the `lm.session` cookie and its user, `requireRole` limits a route to operators or owners, and
 * `requireStepUp` guards the actions that need a recent second factor.
 */
import type { NextFunction, Request, Response } from "express";
import type { Session, User } from "@lm/db";
import {
  ApiError,
  assertStepUp,
  authenticateSession,
  findSellerStore,
  type ClientInfo,
  type PanelActor,
  toStorableText,
  type StepUpKind,
} from "@lm/domain";
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

/** Longest user agent kept on a session, characters; the rest of a longer one is dropped. */
export const MAX_USER_AGENT_LENGTH = 512;

/**
 * Address and user agent of a sign-in, kept on the session. The user agent is made storable (Node's parser already
 * refuses NUL in headers; this holds for any other path a header could take) and cut to
 * {@link MAX_USER_AGENT_LENGTH}.
 */
export function clientInfo(req: Request): ClientInfo {
  const userAgent = req.get("user-agent");
  return {
    ipAddress: clientIp(req),
    userAgent: userAgent === undefined ? null : toStorableText(userAgent.slice(0, MAX_USER_AGENT_LENGTH)),
  };
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
 * Authenticates the request by its `lm.session` cookie: loads the live session and its user, slides it, and for
 * state-changing methods enforces the CSRF origin check. A sliding refresh re-sets a persistent cookie so its
 * Max-Age follows.
 * @throws ApiError `authentication_required` (401) without a live session; `permission_denied` (403) for a
 *   state-changing request from an origin outside `PANEL_ORIGINS`
 */
export async function authenticatePanel(
  deps: Pick<AppDeps, "repos" | "config" | "now">,
  req: Request,
  res: Response,
): Promise<PanelAuth> {
  const token = readCookie(req, SESSION_COOKIE);
  const now = deps.now();
  const found = token === undefined ? null : await authenticateSession(deps.repos, token, now);
  if (!found || token === undefined) throw new ApiError("authentication_required", "Sign in to use the panel.");
  assertPanelOrigin(req, deps.config);
  if (found.refreshed && found.session.persistent) {
    setPanelCookie(res, deps.config, { name: SESSION_COOKIE, value: token, expiresAt: found.session.expires_at, now });
  }
  const auth: PanelAuth = { session: found.session, user: found.user, token };
  res.locals.panel = auth;
  return auth;
}

/** Middleware form of {@link authenticatePanel}: routes after it read the result with {@link panelAuth}. */
export function requireSession(deps: Pick<AppDeps, "repos" | "config" | "now">) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    await authenticatePanel(deps, req, res);
    next();
  };
}

/**
 * Limits a route to users of `role` (after {@link requireSession}).
 * @throws ApiError `permission_denied` (403) for any other role
 */
export function requireRole(role: User["role"]) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (panelAuth(res).user.role !== role)
      throw new ApiError("permission_denied", `This action needs the ${role} role.`);
    next();
  };
}

/**
 * Lets an action through only with a live step-up on this session (DESIGN §3), after {@link requireSession}:
 * `always`, or only while the seller's `webhook` / `account` toggle is on. See `StepUpKind` in @lm/domain.
 * @throws ApiError `mfa_required` (403)
 */
export function requireStepUp(deps: Pick<AppDeps, "repos" | "now">, kind: StepUpKind) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const { session, user } = panelAuth(res);
    await assertStepUp(deps, { session, user, kind });
    next();
  };
}

/**
 * The seller of the signed-in user (after {@link requireSession}).
 * @throws ApiError `permission_denied` (403) for an operator, who has no seller
 */
export function panelSellerId(res: Response): string {
  const sellerId = panelAuth(res).user.seller_id;
  if (sellerId === null) throw new ApiError("permission_denied", "This belongs to a seller's account.");
  return sellerId;
}

/**
 * The signed-in owner acting on their seller's store: the actor of key and postback secret changes.
 * @throws ApiError `permission_denied` (403) for an operator
 */
export async function panelActor(deps: Pick<AppDeps, "repos">, res: Response): Promise<PanelActor> {
  const sellerId = panelSellerId(res);
  const store = await findSellerStore(deps.repos, sellerId);
  return { userId: panelAuth(res).user.id, sellerId, storeId: store.id };
}
