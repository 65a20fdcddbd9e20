/**
 * Reading a seller's webhook endpoints (DESIGN §5 "Panel"): only its own, never deleted ones, so another seller's id,
 * a deleted endpoint's id and an unknown id all read the same (404, SPEC "Webhook endpoint": a removed endpoint's id
 * returns 404).
 */
import type { WebhookEndpoint, Repositories } from "@lm/db";
import type { Mode } from "../api-keys/api-key";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

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

/** One page of `sellerId`'s endpoints, optionally of one `mode`, in the page's order. */
export function listWebhookEndpoints(
  repos: Repositories,
  sellerId: string,
  filters: { mode?: Mode },
  page: PageArgs,
): Promise<WebhookEndpoint[]> {
  return repos.webhookEndpoints.listWebhookEndpointsPage(sellerId, filters, page);
}

/** `data.object` of a `ping` event (DESIGN §4): the endpoint's id and whether it is enabled. */
export function endpointPingObject(endpoint: Pick<WebhookEndpoint, "id" | "enabled">): Record<string, unknown> {
  return { id: endpoint.id, object: "webhook_endpoint", status: endpoint.enabled ? "enabled" : "disabled" };
}
