/**
 * Reading a seller's webhook endpoints (DESIGN §5 "Panel"): only its own, never deleted ones, so another seller's id,
 * a deleted endpoint's id and an unknown id all read the same (404, SPEC "Webhook endpoint": a removed endpoint's id
 * returns 404).
 */
import type { WebhookEndpoint, Repositories } from "@lm/db";
import type { WebhookEndpointView } from "@lm/wire";
import type { Mode } from "../api-keys/api-key";
import type { UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";
import { decryptCustomHeaders, maskCustomHeaders } from "../webhooks/custom-headers";

/**
 * `endpoint` as replies show it: with its custom headers, names as given and values masked (DESIGN §16).
 * @param key - `config.encryptionKey`
 * @throws Error when the headers do not decrypt under `key` (a wrong `ENCRYPTION_KEY`: a 500, never a wrong reply)
 */
export function endpointView(key: Buffer, endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    ...endpoint,
    maskedHeaders: maskCustomHeaders(decryptCustomHeaders(key, endpoint.headers_ciphertext, endpoint.id)),
  };
}

/**
 * The endpoint `id` of `sellerId`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, deleted or another seller's
 */
export async function findWebhookEndpoint(repos: Repositories, sellerId: string, id: string): Promise<WebhookEndpoint> {
  const found = isId("webhookEndpoint", id)
    ? await repos.webhookEndpoints.findSellerWebhookEndpoint(sellerId, id)
    : null;
  if (!found) throw notFound("webhook endpoint");
  return found;
}

/**
 * The endpoint `id` of `sellerId` as replies show it ({@link endpointView}).
 * @throws ApiError `resource_not_found` as {@link findWebhookEndpoint}
 */
export async function readWebhookEndpoint(
  deps: Pick<UseCaseDeps, "repos" | "config">,
  sellerId: string,
  id: string,
): Promise<WebhookEndpointView> {
  return endpointView(deps.config.encryptionKey, await findWebhookEndpoint(deps.repos, sellerId, id));
}

/** One page of `sellerId`'s endpoints, optionally of one `mode`, in the page's order, as replies show them. */
export async function listWebhookEndpoints(
  deps: Pick<UseCaseDeps, "repos" | "config">,
  sellerId: string,
  filters: { mode?: Mode },
  page: PageArgs,
): Promise<WebhookEndpointView[]> {
  const endpoints = await deps.repos.webhookEndpoints.listWebhookEndpointsPage(sellerId, filters, page);
  return endpoints.map((endpoint) => endpointView(deps.config.encryptionKey, endpoint));
}

/** `data.object` of a `ping` event (DESIGN §4): the endpoint's id and whether it is enabled. */
export function endpointPingObject(endpoint: Pick<WebhookEndpoint, "id" | "enabled">): Record<string, unknown> {
  return { id: endpoint.id, object: "webhook_endpoint", status: endpoint.enabled ? "enabled" : "disabled" };
}
