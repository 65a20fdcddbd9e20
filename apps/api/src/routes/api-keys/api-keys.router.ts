/**
 * The seller's API keys in the panel (SPEC "API keys", DESIGN §3): list the store's active keys, create and rotate
 * (always after a step-up), delete (after a step-up while the seller's `account` toggle is on). Owners only.
 */
import { Router } from "express";
import { createStoreApiKey, deleteApiKey, listActiveApiKeys, rotateApiKey } from "@lm/domain";
import { type ApiKeyList, serializeApiKey, serializeCreatedApiKey, serializeRotatedApiKey } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelActor, requireStepUp } from "../../http/auth";
import { withRequestLogger } from "../../http/request-log";
import { validate } from "../../http/validate";
import { apiKeyPathSchema, createApiKeySchema } from "./api-keys.contract";

/** Router of `/v1/me/api-keys`. */
export function apiKeysRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    const actor = await panelActor(deps, res);
    const keys = await listActiveApiKeys(deps.repos, actor.storeId, deps.now());
    // Every active key fits one page (at most 10 per mode), so the list never has more.
    res.json({ object: "list", data: keys.map((key) => serializeApiKey(key)), has_more: false } satisfies ApiKeyList);
  });

  router.post("/", requireStepUp(deps, "always"), async (req, res) => {
    const input = validate(createApiKeySchema, req.body);
    const created = await createStoreApiKey(withRequestLogger(deps, res), await panelActor(deps, res), input);
    res.status(201).json(serializeCreatedApiKey(created.apiKey, created.key));
  });

  router.post("/:id/rotate", requireStepUp(deps, "always"), async (req, res) => {
    const { id } = validate(apiKeyPathSchema, req.params);
    const rotated = await rotateApiKey(withRequestLogger(deps, res), await panelActor(deps, res), id);
    res.status(201).json(serializeRotatedApiKey(rotated.apiKey, rotated.key, rotated.oldKeyRevokeAt));
  });

  router.delete("/:id", requireStepUp(deps, "account"), async (req, res) => {
    const { id } = validate(apiKeyPathSchema, req.params);
    await deleteApiKey(withRequestLogger(deps, res), await panelActor(deps, res), id);
    // Refused at once (DESIGN §3): this process has forgotten the key before the seller hears it is deleted; other
    // processes forget it when the change's notification reaches them, a moment later.
    await deps.apiKeyChanges.catchUp();
    res.status(204).end();
  });

  return router;
}
