/**
 * Inbound acquirer notifications (DESIGN §5 "Inbound and ops"): `POST /v1/acquirers/{slug}/notifications`, with no
 * session or key: the request is authenticated by its `X-Acquirer-Signature`. Every request is stored before anything
 * else, so this router reads the body as raw bytes itself and is mounted before the JSON body rules: a body that is
 * not JSON, or not labelled as JSON, is still kept for the operators rather than refused unseen.
 */
import express, { Router, type Request } from "express";
import { receiveAcquirerNotification, toStorableText } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { MAX_BODY_BYTES } from "../../http/json-body";

/**
 * The request's headers as a string map (lower-case names; repeated headers joined with `, `), in storable text
 * (Node's parser refuses NUL in headers already; this keeps the row safe whatever the transport lets through).
 */
function headerMap(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined)
      headers[toStorableText(name)] = toStorableText(Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** Router of `POST /v1/acquirers/{slug}/notifications`; mount it before `jsonBody()`. */
export function acquirerNotificationsRouter(deps: AppDeps): Router {
  const router = Router();
  router.post("/:slug/notifications", express.raw({ type: () => true, limit: MAX_BODY_BYTES }), async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    req.rawBody = rawBody;
    res.json(await receiveAcquirerNotification(deps, { slug: req.params.slug, rawBody, headers: headerMap(req) }));
  });
  return router;
}
