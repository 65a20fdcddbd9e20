/**
 * Merchant API authentication (DESIGN §3): `Authorization: Bearer sk_test_…|sk_live_…`. The authenticated key's
 * store and mode are put on `res.locals.merchant`; every merchant handler reads its scope from there, so a key only
 * ever sees and creates rows of its own store and mode.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiError, authenticateApiKey, type AuthenticatedApiKey } from "@lm/domain";
import type { AppDeps } from "../deps";

const BEARER = /^Bearer +(\S+)$/i;

/**
 * Middleware that authenticates the request's API key.
 * @throws ApiError `authentication_required` for a missing or malformed header, and for an unknown, revoked or
 *   expired key
 */
export function requireApiKey(deps: Pick<AppDeps, "repos" | "now" | "apiKeyCache">) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = BEARER.exec(req.get("authorization") ?? "");
    if (!match?.[1]) {
      throw new ApiError("authentication_required", "No API key provided: send Authorization: Bearer <your key>.");
    }
    res.locals.merchant = await authenticateApiKey(deps.repos, match[1], deps.now(), deps.apiKeyCache);
    next();
  };
}

/**
 * The caller authenticated by {@link requireApiKey}.
 * @throws Error when the route was mounted without it (a programming error, answered as 500)
 */
export function merchantOf(res: Response): AuthenticatedApiKey {
  const merchant = res.locals.merchant as AuthenticatedApiKey | undefined;
  if (!merchant) throw new Error("merchant route mounted without requireApiKey");
  return merchant;
}
