/**
 * Delivery operations of the panel (SPEC "Webhook endpoints (account level)", DESIGN §5): ping an endpoint, list its
 * delivery attempts, its 7-day stats, and resend any of the seller's deliveries as a new manual chain. Ping and
 * resend answer 202 with the first row of the chain they started; the worker sends it.
 */
import { Router } from "express";
import { endpointStats, listEndpointDeliveries, pingWebhookEndpoint, resendDelivery, type PageArgs } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { panelSellerId, requireSession } from "../../http/auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { listDeliveriesSchema } from "./webhook-endpoints.schemas";
import { serializeDelivery, serializeEndpointStats } from "./webhook-endpoints.serializer";

/** Router of `/v1/me/webhook-endpoints/{id}/{ping,deliveries,stats}` and `/v1/me/webhook-deliveries/{id}/resend`. */
export function webhookDeliveriesRouter(deps: AppDeps): Router {
  const router = Router();
  const session = requireSession(deps);

  router.post("/v1/me/webhook-endpoints/:id/ping", session, async (req, res) => {
    const delivery = await pingWebhookEndpoint(deps, panelSellerId(res), String(req.params.id));
    res.status(202).json(serializeDelivery(delivery));
  });

  router.get("/v1/me/webhook-endpoints/:id/deliveries", session, async (req, res) => {
    const { status, event_type, ...page } = validate(listDeliveriesSchema, req.query);
    const sellerId = panelSellerId(res);
    const endpointId = String(req.params.id);
    const fetch = (args: PageArgs) => listEndpointDeliveries(deps.db, sellerId, endpointId, { status, event_type }, args);
    res.json(await listPage(page, "delivery", fetch, serializeDelivery));
  });

  router.get("/v1/me/webhook-endpoints/:id/stats", session, async (req, res) => {
    const stats = await endpointStats(deps.db, panelSellerId(res), String(req.params.id), deps.now());
    res.json(serializeEndpointStats(stats));
  });

  router.post("/v1/me/webhook-deliveries/:id/resend", session, async (req, res) => {
    const delivery = await resendDelivery(deps, panelSellerId(res), String(req.params.id));
    res.status(202).json(serializeDelivery(delivery));
  });

  return router;
}
