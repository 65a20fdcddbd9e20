/**
 * An owner ready to withdraw in test mode: 2FA on and stepped up, a test API key, a payout key past its cooling-off,
 * and a balance made of paid charges (paid through the sandbox's inbound path, processed in the test's process).
 */
import type { ApiTestContext } from "./harness";
import type { MerchantClient } from "./merchant-client";
import { paidCharge } from "./money";
import { endpointOwner, ownerMerchantClient, type EndpointOwner, type PanelClient } from "./webhook-endpoints";

/** A day and an hour, ms: a payout key added this long ago is past its 24 h cooling-off (DESIGN §11). */
export const COOLED_OFF_KEY_AGE_MS = 25 * 3_600_000;

/** The owner, their test API client and their payout key's id. */
export interface MoneyOwner extends EndpointOwner {
  api: MerchantClient;
  payoutKeyId: string;
}

/**
 * Adds a payout key through the panel as if `ageMs` ago: the API's clock is moved back for that one request (the
 * session and its step-up, both set at the real time, still hold), then put back.
 * @param body - `{type, key}` of `POST /v1/me/payout-keys`
 * @returns the key as the API returned it
 * @throws Error when the reply is not 201
 */
export async function addPayoutKeyAgo(
  ctx: ApiTestContext,
  panel: PanelClient,
  body: { type: string; key: string },
  ageMs = COOLED_OFF_KEY_AGE_MS,
): Promise<{ id: string; type: string; key_masked: string; created_at: string }> {
  const clock = ctx.deps.now;
  ctx.deps.now = () => new Date(clock().getTime() - ageMs);
  try {
    const res = await panel.post("/v1/me/payout-keys", body);
    if (res.status !== 201) throw new Error(`payout key failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  } finally {
    ctx.deps.now = clock;
  }
}

/**
 * Makes a {@link MoneyOwner} whose test balance is `balance` centavos (one paid charge; none when 0) and whose email
 * payout key was added {@link COOLED_OFF_KEY_AGE_MS} ago.
 * @throws Error when a step fails
 */
export async function moneyOwner(ctx: ApiTestContext, balance: number): Promise<MoneyOwner> {
  const owner = await endpointOwner(ctx);
  const api = await ownerMerchantClient(ctx, owner, "test");
  if (balance > 0) await paidCharge(ctx, api, balance);
  const key = await addPayoutKeyAgo(ctx, owner.panel, {
    type: "email",
    key: `pay-${owner.seller.id.slice(-8).toLowerCase()}@example.com`,
  });
  return { ...owner, api, payoutKeyId: key.id };
}
