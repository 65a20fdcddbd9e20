/**
 * PLACEHOLDER for the operators' authentication (DESIGN §3 "Roles": the `/v1/ops` API needs a panel session of a
 * user with role `ops`). Panel sessions are built in another issue; until then this refuses every request with 401
 * `authentication_required`, so the ops routes exist but nobody can reach them. Replace it with the session check
 * (`role === "ops"`) when sessions land.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "@lm/domain";

/** Refuses every request: no operator session exists yet. */
export function requireOpsRolePlaceholder(_req: Request, _res: Response, _next: NextFunction): void {
  throw new ApiError("authentication_required", "An operator session is required.");
}
