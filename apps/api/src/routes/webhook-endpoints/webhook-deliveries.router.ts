/**
 * Delivery operations of the panel (SPEC "Webhook endpoints (account level)", DESIGN §5): ping an endpoint, list its
 * delivery attempts, its 7-day stats, and resend any of the seller's deliveries as a new manual chain. Ping and
 * resend answer 202 with the first row of the chain they started; the worker sends it. Ping and resend share a limit
 * per seller (429 `rate_limited`), since each one writes rows and sends a request.
 */
import { Router, type Response } from "express";
import {
  endpointStats,
  findSentRequest,
  listEndpointDeliveries,
  pingWebhookEndpoint,
  recoverWebhookEndpoint,
  resendDelivery,
  searchDeliveries,
  type PageArgs,
} from "@lm/domain";
import { serializeDelivery, serializeDeliveryDetail, serializeEndpointStats, serializeRecovery } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelSellerId, requireStepUp } from "../../http/auth";
import { listPage } from "../../http/list";
import { consumeOrReject, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { listDeliveriesSchema, recoverEndpointSchema, searchDeliveriesSchema } from "./webhook-endpoints.contract";

/** The seller of the signed-in user, once its manual-delivery allowance (ping and resend) is counted. */
async function manualSender(limits: PanelRateLimits, res: Response): Promise<string> {
  const sellerId = panelSellerId(res);
  await consumeOrReject(limits, [limits.manualDeliveriesPerSeller, sellerId]);
  return sellerId;
}

/**
 * Router of `/v1/me/webhook-endpoints/{id}/{ping,deliveries,stats,recover}`, mounted behind the panel session beside
 * `webhookEndpointsRouter`.
 */
export function endpointDeliveriesRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();

  router.post("/:id/ping", async (req, res) => {
    const delivery = await pingWebhookEndpoint(deps, await manualSender(limits, res), String(req.params.id));
    res.status(202).json(serializeDelivery(delivery));
  });

  router.get("/:id/deliveries", async (req, res) => {
    const { status, event_type, ...page } = validate(listDeliveriesSchema, req.query);
    const sellerId = panelSellerId(res);
    const endpointId = String(req.params.id);
    const fetch = (args: PageArgs) =>
      listEndpointDeliveries(deps.repos, sellerId, endpointId, { status, event_type }, args);
    res.json(await listPage(page, "delivery", fetch, serializeDelivery));
  });

  router.get("/:id/stats", async (req, res) => {
    const stats = await endpointStats(deps.repos, panelSellerId(res), String(req.params.id), deps.now());
    res.json(serializeEndpointStats(stats));
  });

  router.post("/:id/recover", requireStepUp(deps, "webhook"), async (req, res) => {
    const window = validate(recoverEndpointSchema, req.body);
    const recovery = await recoverWebhookEndpoint(deps, panelSellerId(res), String(req.params.id), window);
    res.status(202).json(serializeRecovery(recovery));
  });

  return router;
}

/**
 * Router of `/v1/me/webhook-deliveries` (search across destinations, DESIGN §8), `/v1/me/webhook-deliveries/{id}` (an
 * attempt with the request it sent, DESIGN §15) and `/v1/me/webhook-deliveries/{id}/resend`, mounted behind the panel
 * session.
 */
export function webhookDeliveriesRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { mode, destination, transaction_id, event_id, status, ...page } = validate(
      searchDeliveriesSchema,
      req.query,
    );
    const sellerId = panelSellerId(res);
    const filters = { mode, destination, transaction_id, event_id, status };
    res.json(
      await listPage(
        page,
        "delivery",
        (args: PageArgs) => searchDeliveries(deps.repos, sellerId, filters, args),
        serializeDelivery,
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    const { delivery, request } = await findSentRequest(deps, panelSellerId(res), String(req.params.id));
    res.json(serializeDeliveryDetail(delivery, request));
  });

  router.post("/:id/resend", async (req, res) => {
    const delivery = await resendDelivery(deps, await manualSender(limits, res), String(req.params.id));
    res.status(202).json(serializeDelivery(delivery));
  });

  return router;
}
