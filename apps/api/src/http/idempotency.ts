/**
 * `Idempotency-Key` for POST routes of the merchant API (DESIGN §5): the same key with the same request replays the
 * first reply (status and the body's exact bytes; header `Idempotent-Replayed: true`); with another request it is 400
 * `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_progress`. Records live in
 * PostgreSQL for 24 h, per store and mode. A request without the header simply runs, except on the routes that move
 * money out (refunds, withdrawals: DESIGN §12 "Safer defaults"), where a retry without a key would move it twice.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import type { IdempotentReply } from "@lm/db";
import {
  claimIdempotencyKey,
  idempotentReply,
  releaseIdempotencyKey,
  validationFailed,
  type MerchantScope,
} from "@lm/domain";
import type { AppDeps } from "../deps";
import { merchantOf } from "./api-key-auth";
import { sendJson, sendJsonText } from "./json-reply";

/** What a wrapped handler answers; the wrapper sends it (and stores it when a key was given). */
export interface Reply {
  status: number;
  body: unknown;
}

/**
 * `reply` as the key's reply to keep (`undefined` for a request without a key); the handler's use case stores it with
 * the request's own writes, so that both commit or neither does.
 */
export type CommitReply = (reply: Reply) => IdempotentReply | undefined;

/** How a route uses `Idempotency-Key`. */
export interface IdempotencyOptions {
  /**
   * The store and mode the key belongs to: the API key's by default; a panel route (withdrawals) gives the signed-in
   * seller's store and the mode of its body.
   */
  scopeOf?: (req: Request, res: Response) => Promise<MerchantScope>;
  /**
   * What one request creates (`"refund"`, `"withdrawal"`), when the header is required: a request without it is
   * refused before anything runs, since a client's retry without a key would create a second one.
   */
  requiredFor?: string;
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
 * Wraps a merchant POST handler (mounted after `requireApiKey`) with `Idempotency-Key` semantics. The handler must
 * pass the reply `commitReply` makes to its use case, which stores it with its own writes, so that the reply is
 * stored atomically with them (see packages/domain/src/idempotency). Only successful replies are kept (refusals are
 * thrown); a refused request releases the key (Stripe's rule), so a fixed request may reuse it.
 * @param options - the key's scope, and whether the header is required (see {@link IdempotencyOptions})
 * @throws ApiError `validation_failed` (param `Idempotency-Key`) for a malformed key, or a missing one where
 *   `options.requiredFor` is set; and the claim's errors
 */
export function idempotent(
  deps: Pick<AppDeps, "repos" | "now">,
  handler: (req: Request, res: Response, commitReply: CommitReply) => Promise<Reply>,
  options: IdempotencyOptions = {},
) {
  const scopeOf = options.scopeOf ?? (async (_req: Request, res: Response) => merchantOf(res));
  return async (req: Request, res: Response): Promise<void> => {
    const key = req.get("idempotency-key");
    if (key === undefined && options.requiredFor !== undefined) throw missingKey(options.requiredFor);
    if (key === undefined) {
      const reply = await handler(req, res, () => undefined);
      sendJson(res, reply.status, reply.body);
      return;
    }
    if (!KEY_PATTERN.test(key)) {
      throw validationFailed("Idempotency-Key must be 1 to 255 printable ASCII characters.", "Idempotency-Key");
    }
    const path = req.originalUrl.split("?")[0] ?? "";
    const requestHash = requestFingerprint(req.method, path, req.rawBody);
    const claim = await claimIdempotencyKey(deps.repos, await scopeOf(req, res), { key, requestHash, now: deps.now() });
    if (claim.kind === "replay") {
      res.setHeader("Idempotent-Replayed", "true");
      sendJsonText(res, claim.status, claim.body);
      return;
    }
    // The text stored is the text sent, so a replay is byte for byte this reply.
    let committed: { status: number; text: string } | undefined;
    const commitReply: CommitReply = (reply) => {
      committed = { status: reply.status, text: JSON.stringify(reply.body) };
      return idempotentReply(claim, committed.status, committed.text);
    };
    try {
      await handler(req, res, commitReply);
    } catch (err) {
      await releaseIdempotencyKey(deps.repos, claim);
      throw err;
    }
    if (!committed) throw new Error("an idempotent handler returned without committing its reply");
    sendJsonText(res, committed.status, committed.text);
  };
}

/** The refusal of a request without `Idempotency-Key` on a route that requires one; `what` is what it creates. */
function missingKey(what: string) {
  return validationFailed(
    `An Idempotency-Key header is required: send a unique key per ${what} (a UUID, say). A retry with the same key ` +
      `is safe: it returns the first reply and never creates a second ${what}.`,
    "Idempotency-Key",
  );
}
