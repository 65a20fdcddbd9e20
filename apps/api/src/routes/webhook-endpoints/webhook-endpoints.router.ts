/**
 * A seller's account-level webhook endpoints in the panel (SPEC "Webhook endpoints (account level)", DESIGN §5):
 * create (always behind a step-up), list, read, change, delete and rotate the secret (behind a step-up while the
 * seller's `webhook` toggle is on). Panel session only: an API key is not a session, so it gets 401.
 */
import { Router } from "express";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  readWebhookEndpoint,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
  type PageArgs,
} from "@lm/domain";
import { serializeCreatedEndpoint, serializeRotatedEndpoint, serializeWebhookEndpoint } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelActor, panelSellerId, requireStepUp } from "../../http/auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import {
  createWebhookEndpointSchema,
  listWebhookEndpointsSchema,
  updateWebhookEndpointSchema,
} from "./webhook-endpoints.contract";

/** Router of `/v1/me/webhook-endpoints` and `/v1/me/webhook-endpoints/{id}` (and its `rotate-secret`). */
export function webhookEndpointsRouter(deps: AppDeps): Router {
  const router = Router();
  const change = requireStepUp(deps, "webhook");

  router.post("/", requireStepUp(deps, "always"), async (req, res) => {
    const input = validate(createWebhookEndpointSchema, req.body);
    const { endpoint, secret } = await createWebhookEndpoint(deps, await panelActor(deps, res), input);
    res.status(201).json(serializeCreatedEndpoint(endpoint, secret));
  });

  router.get("/", async (req, res) => {
    const { mode, ...page } = validate(listWebhookEndpointsSchema, req.query);
    const sellerId = panelSellerId(res);
    const fetch = (args: PageArgs) => listWebhookEndpoints(deps, sellerId, { mode }, args);
    res.json(await listPage(page, "webhookEndpoint", fetch, serializeWebhookEndpoint));
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeWebhookEndpoint(await readWebhookEndpoint(deps, panelSellerId(res), String(req.params.id))));
  });

  router.patch("/:id", change, async (req, res) => {
    const input = validate(updateWebhookEndpointSchema, req.body);
    const endpoint = await updateWebhookEndpoint(deps, panelSellerId(res), String(req.params.id), input);
    res.json(serializeWebhookEndpoint(endpoint));
  });

  router.delete("/:id", change, async (req, res) => {
    await deleteWebhookEndpoint(deps, await panelActor(deps, res), String(req.params.id));
    res.status(204).end();
  });

  router.post("/:id/rotate-secret", change, async (req, res) => {
    const rotated = await rotateWebhookEndpointSecret(deps, await panelActor(deps, res), String(req.params.id));
    res.json(serializeRotatedEndpoint(rotated));
  });

  return router;
}
