/**
 * The one place that refuses request text PostgreSQL cannot store (NUL, lone UTF-16 surrogates) or a path that is not
 * percent-encoded UTF-8, before any route or database work. Refusals are 400
 * `validation_failed`; for a body or query the `param` names the field (joi's dotted form). Without this, such text
 * fails the statement it reaches as a 500, and Prisma's batching of concurrent look-ups spreads the failure to other
 * users' requests; Express 5's own decoding of route parameters throws a `URIError` that would also be a 500.
 */
import type { NextFunction, Request, Response } from "express";
import { findUnstorableText, isStorableText, validationFailed } from "@lm/domain";

/** Whether every segment of `path` decodes as UTF-8 to storable text. */
function isReadablePath(path: string): boolean {
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (!isStorableText(decoded)) return false;
  }
  return true;
}

/**
 * Refuses a path that does not decode (`%FF`, `%E0%A4%A`, `%C0%AE`) or decodes to NUL, and a query value (or name)
 * holding unstorable text. Mount it before every router, the inbound notifications' included.
 * @throws ApiError `validation_failed` (400), `param` the query field when the query is at fault
 */
export function refuseUnstorablePathAndQuery(req: Request, _res: Response, next: NextFunction): void {
  if (!isReadablePath(req.path)) throw validationFailed("The request path is not valid percent-encoded UTF-8 text.");
  const param = findUnstorableText(req.query);
  if (param !== null) throw unstorable(param, "query parameter");
  next();
}

/**
 * Refuses a parsed JSON body holding unstorable text in any value or key, however deep. Mount it after the JSON
 * parser.
 * @throws ApiError `validation_failed` (400), `param` the field at fault
 */
export function refuseUnstorableBody(req: Request, _res: Response, next: NextFunction): void {
  const param = findUnstorableText(req.body);
  if (param !== null) throw unstorable(param, "field");
  next();
}

function unstorable(param: string, what: string) {
  return validationFailed(
    `The ${what} holds a NUL character or an unpaired UTF-16 surrogate, which cannot be stored.`,
    param === "" ? undefined : param,
  );
}
