/**
 * Inbound acquirer notifications (DESIGN §5 "Inbound and ops", §9): `POST /v1/acquirers/{slug}/notifications`, and
 * the same at `.../notifications/pix`, `/rec` and `/cobr`, where a bank of the API Pix standard posts (it appends
 * `/pix` to the registered URL, and Pix Automático's `/rec` and `/cobr`, DESIGN §14 "Live"). No session or key: a
 * request is authenticated by its `X-Acquirer-Signature`, or, from a bank that signs nothing, is a hint whose payments,
 * recurrences and cycle charges are read back from the bank before they change anything. Every request is stored
 * before anything else, so this router reads the body as raw bytes itself and is mounted before the JSON body rules: a
 * body that is not JSON, or not labelled as JSON, is still kept for the operators rather than refused unseen.
 */
import express, { Router, type Request, type Response } from "express";
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

/** Router of `POST /v1/acquirers/{slug}/notifications[/pix|/rec|/cobr]`; mount it before `jsonBody()`. */
export function acquirerNotificationsRouter(deps: AppDeps): Router {
  const router = Router();
  const rawBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });
  const receive = async (req: Request, res: Response) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    req.rawBody = body;
    res.json(
      await receiveAcquirerNotification(deps, {
        slug: String(req.params.slug),
        rawBody: body,
        headers: headerMap(req),
      }),
    );
  };
  router.post("/:slug/notifications", rawBody, receive);
  router.post("/:slug/notifications/pix", rawBody, receive);
  // Pix Automático's webhooks (`webhookrec`, `webhookcobr`) post to the same URL with `/rec` and `/cobr` appended.
  router.post("/:slug/notifications/rec", rawBody, receive);
  router.post("/:slug/notifications/cobr", rawBody, receive);
  return router;
}
