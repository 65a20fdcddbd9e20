/**
 * `Idempotency-Key` for POST routes of the merchant API (DESIGN §5): the same key with the same request replays the
 * first reply (status and body; header `Idempotent-Replayed: true`); with another request it is 400
 * `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_progress`. Records live in
 * PostgreSQL for 24 h, per store and mode. A request without the header simply runs.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  validationFailed,
} from "@lm/domain";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";

/** What a wrapped handler answers; the wrapper sends it (and stores it when a key was given). */
export interface Reply {
  status: number;
  body: unknown;
}

/** Printable ASCII without spaces, 1 to 255 characters (Stripe accepts up to 255). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** SHA-256 (hex) of what makes two requests "the same": method, path (no query) and the exact body bytes. */
export function requestFingerprint(method: string, path: string, rawBody: Buffer | undefined): string {
  return createHash("sha256")
    .update(`${method} ${path}\n`)
    .update(rawBody ?? Buffer.alloc(0))
    .digest("hex");
}

/**
 * Wraps a merchant POST handler (mounted after `requireApiKey`) with `Idempotency-Key` semantics. Only successful
 * replies are kept (refusals are thrown); a refused request releases the key (Stripe's rule), so a fixed request may reuse it.
 * @throws ApiError `validation_failed` (param `Idempotency-Key`) for a malformed key, and the claim's errors
 */
export function idempotent(deps: Pick<AppDeps, "db" | "now">, handler: (req: Request, res: Response) => Promise<Reply>) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = req.get("idempotency-key");
    if (key === undefined) {
      const reply = await handler(req, res);
      res.status(reply.status).json(reply.body);
      return;
    }
    if (!KEY_PATTERN.test(key)) {
      throw validationFailed("Idempotency-Key must be 1 to 255 printable ASCII characters.", "Idempotency-Key");
    }
    const path = req.originalUrl.split("?")[0] ?? "";
    const requestHash = requestFingerprint(req.method, path, req.rawBody);
    const claim = await claimIdempotencyKey(deps.db, merchantOf(res), { key, requestHash, now: deps.now() });
    if (claim.kind === "replay") {
      res.setHeader("Idempotent-Replayed", "true");
      res.status(claim.status).json(claim.body);
      return;
    }
    let reply: Reply;
    try {
      reply = await handler(req, res);
    } catch (err) {
      await releaseIdempotencyKey(deps.db, claim.claimId);
      throw err;
    }
    await completeIdempotencyKey(deps.db, claim.claimId, reply.status, reply.body);
    res.status(reply.status).json(reply.body);
  };
}
