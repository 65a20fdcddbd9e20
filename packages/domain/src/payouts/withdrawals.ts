/**
 * Withdrawals (DESIGN §7 "Withdrawals"): the money-out lifecycle for a seller's balance sent to one of its payout keys.
 * What a withdrawal adds to the lifecycle: its checks on creation, in DESIGN §7's order, under the seller row's share
 * lock (so a 2FA recovery or a KYC decision cannot slip between check and debit): `withdrawals_locked`,
 * `kyc_required` for live, `resource_not_found` for a foreign or deleted payout key, then DESIGN §11's
 * `payout_key_cooling_off` right after the key is found (it is about the key, like the 404 before it, and a request
 * refused for what it asks is told so before whether the mode's acquirer or the balance could serve it:
 * `acquirer_not_configured`, `insufficient_funds`); the mode's acquirer pays the key (`sendPixPayment`); its events
 * (`withdrawal.created`, `.processing` on the first request, `.completed`, `.failed`) go to every store of its seller.
 */
import type { IdempotentReply, Repositories, WithdrawalWithPayoutKey } from "@lm/db";
import { serializeWithdrawal } from "@lm/wire";
import { acquirerOfRow, requireAcquirer, type Reporter } from "../acquirers";
import type { PayoutOutcome, Settlement } from "../inbound";
import { merchantSellerScope } from "../balance/find-balance";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { recordEvent } from "../events/record-event";
import { newId } from "../ids";
import { assertPayoutKeyCooledOff, findPayoutKey, isOwnDocumentKey } from "../payout-keys/payout-keys";
import { sellerDocumentDigits } from "../sellers/seller-document";
import { createPayout } from "./create-payout";
import { reloadPayout, type PayoutKind, type PayoutStep } from "./payout-kind";
import { settlePayoutOutcome } from "./settle-payout";
import { submitPayout } from "./submit-payout";

/** The event of each step a withdrawal records: a success is `withdrawal.completed`. */
const WITHDRAWAL_EVENTS = {
  created: "withdrawal.created",
  processing: "withdrawal.processing",
  succeeded: "withdrawal.completed",
  failed: "withdrawal.failed",
} as const;

/** Records the event of `step` for `withdrawal` in its mode on every store of its seller, inside `tx`. */
async function recordWithdrawalEvent(
  tx: Repositories,
  withdrawal: WithdrawalWithPayoutKey,
  step: PayoutStep,
  now: Date,
): Promise<string[]> {
  const stores = await tx.sellers.listStoreIdsOfSeller(withdrawal.seller_id);
  const object = serializeWithdrawal(withdrawal) as unknown as Record<string, unknown>;
  const type = WITHDRAWAL_EVENTS[step];
  const deliveryIds: string[] = [];
  for (const store of stores) {
    const recorded = await recordEvent(tx, { scope: { storeId: store.id, mode: withdrawal.mode }, type, object, now });
    deliveryIds.push(...recorded.deliveryIds);
  }
  return deliveryIds;
}

/** The withdrawal's part of the lifecycle. */
const WITHDRAWALS: PayoutKind<WithdrawalWithPayoutKey> = {
  noun: "withdrawal",
  succeeded: "completed",
  recordsProcessing: true,
  find: (repos, id) => repos.withdrawals.findWithdrawalWithPayoutKey(id),
  acquirerIdOf: (withdrawal) => withdrawal.acquirer_id,
  record: recordWithdrawalEvent,
  async send(deps, withdrawal) {
    const acquirer = await acquirerOfRow(deps, withdrawal.acquirer_id, withdrawal.mode);
    if (!acquirer) throw new Error(`no acquirer moves ${withdrawal.mode} money`);
    const { payout_key: key } = withdrawal;
    const value = key.key ?? (await sellerDocumentDigits(deps.repos, deps.config.encryptionKey, withdrawal.seller_id));
    const { endToEndId } = await acquirer.sendPixPayment({
      withdrawalId: withdrawal.id,
      key: { type: key.type, value },
      amount: withdrawal.amount,
      createdAt: withdrawal.created_at,
    });
    return endToEndId;
  },
};

/** Body of `POST /v1/me/withdrawals`. */
export interface CreateWithdrawalInput {
  /** Centavos, at least 1. */
  amount: number;
  payout_key_id: string;
  mode: "live" | "test";
}

/**
 * Requests a withdrawal of `input.amount` from `actor`'s seller balance in `input.mode` to one of its payout keys.
 * @param options.reply - the idempotent reply to store in the withdrawal's transaction, given the withdrawal (when
 *   its claim was taken over, nothing is written and its error is thrown)
 * @returns the withdrawal, `pending`
 * @throws ApiError, in this order: `withdrawals_locked`; `kyc_required` (live without approved KYC);
 *   `resource_not_found` (foreign or deleted payout key); `payout_key_cooling_off` (a key added less than 24 h ago,
 *   other than the seller's own CPF/CNPJ); `acquirer_not_configured` (no acquirer for the mode); `insufficient_funds`
 */
export async function createWithdrawal(
  deps: UseCaseDeps,
  actor: { sellerId: string },
  input: CreateWithdrawalInput,
  options: { reply?: (withdrawal: WithdrawalWithPayoutKey) => IdempotentReply | undefined } = {},
): Promise<WithdrawalWithPayoutKey> {
  const now = deps.now();
  return createPayout(
    deps,
    WITHDRAWALS,
    now,
    async (tx) => {
      const seller = await tx.withdrawals.lockSellerForWithdrawal(actor.sellerId);
      if (!seller) throw new ApiError("resource_not_found", "No such seller.");
      if (seller.withdrawals_locked_until !== null && seller.withdrawals_locked_until > now) {
        throw new ApiError(
          "withdrawals_locked",
          `Withdrawals are locked until ${seller.withdrawals_locked_until.toISOString()} after a two-factor recovery.`,
        );
      }
      if (input.mode === "live" && seller.kyc_status !== "approved") {
        throw new ApiError("kyc_required", "Live withdrawals need an approved verification (KYC).");
      }
      const key = await findPayoutKey(tx, actor.sellerId, input.payout_key_id);
      assertPayoutKeyCooledOff(key, now);
      const acquirer = await requireAcquirer(deps, input.mode, "payouts");
      const { id } = await tx.withdrawals.insertWithdrawal({
        id: newId("withdrawal", now.getTime()),
        seller_id: actor.sellerId,
        mode: input.mode,
        amount: input.amount,
        payout_key_id: key.id,
        acquirer_id: acquirer.acquirerId,
        created_at: now,
        updated_at: now,
      });
      return reloadPayout(tx, WITHDRAWALS, id);
    },
    options.reply,
  );
}

/** Body of a test-mode withdrawal requested with an API key: `payout_key_id` defaults to the seller's own-document key. */
export interface TestWithdrawalInput {
  /** Centavos, at least 1. */
  amount: number;
  payout_key_id?: string;
}

/**
 * A withdrawal requested with a test API key (DESIGN §12: `lm trigger withdrawal.completed` works through the public
 * API): the panel's withdrawal with the same rules (balance, lock, cooling-off), in test mode. Without
 * `payout_key_id` it goes to the seller's CPF/CNPJ payout key, the seller's own document, which needs no cooling-off.
 * Live withdrawals stay in the panel, behind a step-up: an API key alone must never be able to empty a balance.
 * @throws ApiError `test_mode_only` for a live key; `invalid_state` when no payout key was given and the seller has
 *   none to its own document; and {@link createWithdrawal}'s errors
 */
export async function createTestWithdrawal(
  deps: UseCaseDeps,
  scope: MerchantScope,
  input: TestWithdrawalInput,
  options: { reply?: (withdrawal: WithdrawalWithPayoutKey) => IdempotentReply | undefined } = {},
): Promise<WithdrawalWithPayoutKey> {
  if (scope.mode !== "test") {
    throw new ApiError(
      "test_mode_only",
      "An API key can request test withdrawals only; live withdrawals are requested in the panel " +
        "(POST /v1/me/withdrawals), behind a step-up.",
    );
  }
  const { sellerId } = await merchantSellerScope(deps.repos, scope);
  let payoutKeyId = input.payout_key_id;
  if (payoutKeyId === undefined) {
    const keys = await deps.repos.payoutKeys.listActivePayoutKeysOfSeller(sellerId);
    payoutKeyId = keys.find(isOwnDocumentKey)?.id;
    if (payoutKeyId === undefined) {
      throw new ApiError(
        "invalid_state",
        "This seller has no payout key to its own CPF/CNPJ: add one in the panel (POST /v1/me/payout-keys, type " +
          "cpf or cnpj), or give payout_key_id.",
        { param: "payout_key_id" },
      );
    }
  }
  return createWithdrawal(
    deps,
    { sellerId },
    { amount: input.amount, payout_key_id: payoutKeyId, mode: "test" },
    options,
  );
}

/**
 * Sends withdrawal `withdrawalId` to its mode's acquirer unless it was accepted or settled already (worker queue
 * `withdrawal-submission`); its first request records `withdrawal.processing`.
 * @returns `sent`, `failed` (attempts exhausted, or the bank refused it) or `skipped`
 * @throws Error the acquirer's error while attempts remain (the job fails; the reconciler offers it again)
 */
export function submitWithdrawal(deps: UseCaseDeps, withdrawalId: string): Promise<string> {
  return submitPayout(deps, WITHDRAWALS, withdrawalId);
}

/**
 * Applies the acquirer's `outcome` for a withdrawal inside `tx` (the caller writes the inbox item's outcome in it):
 * {@link settlePayoutOutcome}, whose success is `completed`; `unknown_withdrawal` for an id we never sent.
 * @param reporter - the notifying acquirer: only the one asked to send the payout reports on it
 */
export async function settleWithdrawal(
  tx: Repositories,
  outcome: PayoutOutcome,
  reporter: Reporter,
  now: Date,
): Promise<Settlement & { withdrawalId?: string }> {
  const withdrawal = await tx.withdrawals.findWithdrawalWithPayoutKey(outcome.withdrawalId);
  if (!withdrawal) return { result: "unknown_withdrawal", error: "unknown_withdrawal", deliveryIds: [] };
  const report = { amount: outcome.amount, status: outcome.status, endToEndId: outcome.endToEndId };
  return settlePayoutOutcome(tx, WITHDRAWALS, withdrawal, { withdrawalId: withdrawal.id }, report, reporter, now);
}
