/**
 * An owner ready to withdraw in test mode: 2FA on and stepped up, a test API key, a payout key, and a balance made of
 * paid charges (paid through the sandbox's inbound path, processed in the test's process).
 */
import type { ApiTestContext } from "./harness";
import type { MerchantClient } from "./merchant-client";
import { paidCharge } from "./money";
import { endpointOwner, ownerMerchantClient, type EndpointOwner } from "./webhook-endpoints";

/** The owner, their test API client and their payout key's id. */
export interface MoneyOwner extends EndpointOwner {
  api: MerchantClient;
  payoutKeyId: string;
}

/**
 * Makes a {@link MoneyOwner} whose test balance is `balance` centavos (one paid charge; none when 0).
 * @throws Error when a step fails
 */
export async function moneyOwner(ctx: ApiTestContext, balance: number): Promise<MoneyOwner> {
  const owner = await endpointOwner(ctx);
  const api = await ownerMerchantClient(ctx, owner, "test");
  if (balance > 0) await paidCharge(ctx, api, balance);
  const key = await owner.panel.post("/v1/me/payout-keys", {
    type: "email",
    key: `pay-${owner.seller.id.slice(-8).toLowerCase()}@example.com`,
  });
  if (key.status !== 201) throw new Error(`payout key failed: ${key.status} ${JSON.stringify(key.body)}`);
  return { ...owner, api, payoutKeyId: key.body.id };
}
