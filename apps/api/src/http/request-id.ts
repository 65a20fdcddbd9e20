/**
 * Request ids (DESIGN §2): every reply carries `X-Request-Id`; a caller's own id is kept when it is sane, otherwise a
 * new `req_…` id is made. Error envelopes repeat it as `request_id`, and every log line of the request names it.
 */
import type { NextFunction, Request, Response } from "express";
import { newId } from "@lm/domain";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** Sets `res.locals.requestId` and the `X-Request-Id` reply header. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get("x-request-id");
  const id = given !== undefined && SANE_REQUEST_ID.test(given) ? given : newId("request");
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  next();
}
