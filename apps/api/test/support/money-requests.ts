/**
 * The two requests that move money out, as a careful client sends them: each with its own fresh `Idempotency-Key`,
 * which both routes require (DESIGN §12 "Safer defaults"). A test that retries on purpose sets its own key after
 * (`.set("Idempotency-Key", …)` replaces this one).
 */
import { randomUUID } from "node:crypto";
import type { MerchantClient } from "./merchant-client";
import type { PanelClient } from "./webhook-endpoints";

/** `POST /v1/transactions/{chargeId}/refunds` with `body` (default `{}`: the refundable remainder) and a fresh key. */
export function requestRefund(client: MerchantClient, chargeId: string, body: object = {}) {
  return client.post(`/v1/transactions/${chargeId}/refunds`, body).set("Idempotency-Key", randomUUID());
}

/** `POST /v1/me/withdrawals` with `body` (`{amount, payout_key_id, mode?}`) and a fresh key. */
export function requestWithdrawal(panel: PanelClient, body: object) {
  return panel.post("/v1/me/withdrawals", body).set("Idempotency-Key", randomUUID());
}
