/**
 * Delivery operations of the panel (SPEC "Webhook endpoints (account level)", DESIGN §5): ping an endpoint, list its
 * delivery attempts, its 7-day stats, and resend any of the seller's deliveries as a new manual chain. Ping and
 * resend answer 202 with the first row of the chain they started; the worker sends it. Ping and resend share a limit
 * per seller (429 `rate_limited`), since each one writes rows and sends a request.
 */
import { Router } from "express";
import {
  endpointStats,
  listEndpointDeliveries,
  pingWebhookEndpoint,
  recoverWebhookEndpoint,
  resendDelivery,
  searchDeliveries,
  type PageArgs,
} from "@lm/domain";
import type { AppDeps } from "../../deps";
import { panelSellerId, requireSession, requireStepUp } from "../../http/auth";
import { listPage } from "../../http/list";
import { consumeOrReject, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { listDeliveriesSchema, recoverEndpointSchema, searchDeliveriesSchema } from "./webhook-endpoints.schemas";
import { serializeDelivery, serializeEndpointStats, serializeRecovery } from "./webhook-endpoints.serializer";

/**
 * Router of `/v1/me/webhook-endpoints/{id}/{ping,deliveries,stats,recover}`, `/v1/me/webhook-deliveries` (search
 * across destinations, DESIGN §8) and `/v1/me/webhook-deliveries/{id}/resend`.
 */
export function webhookDeliveriesRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();
  const session = requireSession(deps);
  /** The seller, once its manual-delivery allowance is counted. */
  const manualSender = async (res: Parameters<typeof panelSellerId>[0]) => {
    const sellerId = panelSellerId(res);
    await consumeOrReject(limits, [limits.manualDeliveriesPerSeller, sellerId]);
    return sellerId;
  };

  router.post("/v1/me/webhook-endpoints/:id/ping", session, async (req, res) => {
    const delivery = await pingWebhookEndpoint(deps, await manualSender(res), String(req.params.id));
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

  router.post("/v1/me/webhook-endpoints/:id/recover", session, requireStepUp(deps, "webhook"), async (req, res) => {
    const window = validate(recoverEndpointSchema, req.body);
    const recovery = await recoverWebhookEndpoint(deps, panelSellerId(res), String(req.params.id), window);
    res.status(202).json(serializeRecovery(recovery));
  });

  router.get("/v1/me/webhook-deliveries", session, async (req, res) => {
    const { mode, destination, transaction_id, event_id, status, ...page } = validate(searchDeliveriesSchema, req.query);
    const sellerId = panelSellerId(res);
    const filters = { mode, destination, transaction_id, event_id, status };
    res.json(await listPage(page, "delivery", (args: PageArgs) => searchDeliveries(deps.db, sellerId, filters, args), serializeDelivery));
  });

  router.post("/v1/me/webhook-deliveries/:id/resend", session, async (req, res) => {
    const delivery = await resendDelivery(deps, await manualSender(res), String(req.params.id));
    res.status(202).json(serializeDelivery(delivery));
  });

  return router;
}
