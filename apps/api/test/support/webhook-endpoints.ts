/**
 * Helpers of the webhook endpoint tests: a panel client for one session (cookie and the panel's Origin on every
 * request), an owner whose session is stepped up, and endpoint creation through the API.
 */
import request from "supertest";
import { createApiKey } from "@lm/domain";
import type { ApiTestContext } from "./harness";
import { merchantClient, type MerchantClient } from "./merchant-client";
import { PANEL_ORIGIN } from "./panel";
import { signUpSteppedUp, type TwoFactorOwner } from "./two-factor";

/** Requests of one panel session. */
export function panelClient(ctx: ApiTestContext, cookie: string) {
  const auth = (r: request.Test) => r.set("Cookie", cookie).set("Origin", PANEL_ORIGIN);
  return {
    get: (path: string) => auth(request(ctx.app).get(path)),
    post: (path: string, body?: object) => auth(request(ctx.app).post(path)).send(body),
    patch: (path: string, body: object) => auth(request(ctx.app).patch(path)).send(body),
    delete: (path: string) => auth(request(ctx.app).delete(path)),
  };
}

/** A panel client. */
export type PanelClient = ReturnType<typeof panelClient>;

/** An owner with 2FA on and a live step-up, their panel client, and their store. */
export interface EndpointOwner extends TwoFactorOwner {
  panel: PanelClient;
  storeId: string;
}

/** Signs up an owner of a new seller, steps their session up, and gives a panel client. */
export async function endpointOwner(ctx: ApiTestContext): Promise<EndpointOwner> {
  const owner = await signUpSteppedUp(ctx);
  const store = await ctx.db.store.findFirstOrThrow({ where: { seller_id: owner.seller.id } });
  return { ...owner, panel: panelClient(ctx, owner.cookie), storeId: store.id };
}

/** The wire endpoint of a creation reply, with its one-time `secret`. */
export interface CreatedEndpoint {
  id: string;
  url: string;
  secret: string;
  secret_prefix: string;
  [field: string]: unknown;
}

/**
 * Creates an endpoint through the API (`events: ["*"]`, test mode unless `body` says otherwise).
 * @throws Error when the reply is not 201
 */
export async function createEndpoint(owner: EndpointOwner, body: Record<string, unknown>): Promise<CreatedEndpoint> {
  const res = await owner.panel.post("/v1/me/webhook-endpoints", { events: ["*"], ...body });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedEndpoint;
}

/** A merchant API client of the owner's store with a fresh key of `mode`. */
export async function ownerMerchantClient(
  ctx: ApiTestContext,
  owner: EndpointOwner,
  mode: "live" | "test",
): Promise<MerchantClient> {
  const { key } = await createApiKey(ctx.deps.repos, { storeId: owner.storeId, name: mode, mode, now: new Date() });
  return merchantClient(ctx.app, key);
}
