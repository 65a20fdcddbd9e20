/**
 * JSON bodies only (DESIGN §3): a request that carries a body must say `application/json` (else 415), must be at most
 * 100 kB (else 413; 2 MB for a batch of charges) and must parse (else 400 `validation_failed`). The raw bytes are kept
 * on `req.rawBody` for signature checks of inbound notifications.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { ApiError } from "@lm/domain";
import { keepWrittenAmount } from "./amount";

/** Largest accepted body, bytes. */
export const MAX_BODY_BYTES = 100 * 1024;

/**
 * Largest body of `POST /v1/transaction-batches`, bytes (DESIGN §13 "Batches"): 1,000 due-date charges, each with its
 * customer, terms and some metadata, come to about 600 kB; this leaves room for two kilobytes each.
 */
export const MAX_BATCH_BODY_BYTES = 2 * 1024 * 1024;

/** The routes whose bodies may be larger than {@link MAX_BODY_BYTES}, by method and path, and their limits. */
const LARGER_BODIES: ReadonlyMap<string, number> = new Map([["POST /v1/transaction-batches", MAX_BATCH_BODY_BYTES]]);

declare module "express-serve-static-core" {
  interface Request {
    /** Exact bytes of a JSON body, as received. */
    rawBody?: Buffer;
  }
}

function hasBody(req: Request): boolean {
  const length = req.get("content-length");
  return req.get("transfer-encoding") !== undefined || (length !== undefined && length !== "0");
}

/** Refuses a body that is not JSON with 415 `unsupported_media_type`. */
function requireJsonContentType(req: Request, _res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is("application/json")) {
    next(new ApiError("unsupported_media_type", "Request bodies must be JSON (Content-Type: application/json)."));
    return;
  }
  next();
}

/**
 * The body middlewares, in order: content type, parsing, and an `amount` written as a decimal kept as written (see
 * `keepWrittenAmount`). Parser errors are mapped by the central error handler.
 */
export function jsonBody() {
  const parser = (limit: number) =>
    express.json({
      limit,
      strict: true,
      verify: (req, _res, buf) => {
        (req as Request).rawBody = Buffer.from(buf);
      },
    });
  const parsers = new Map([...LARGER_BODIES].map(([route, limit]) => [route, parser(limit)]));
  const standard = parser(MAX_BODY_BYTES);
  const parse = (req: Request, res: Response, next: NextFunction) =>
    (parsers.get(`${req.method} ${req.path}`) ?? standard)(req, res, next);
  return [requireJsonContentType, parse, keepWrittenAmount];
}
