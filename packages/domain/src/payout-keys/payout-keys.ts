/**
 * Payout keys (DESIGN §7): the seller's own Pix keys that withdrawals are paid to. A key is validated and normalised
 * to its DICT form by @brazilian-utils' `getPixKeyInfo` (CPF/CNPJ check digits, e-mail, mobile phone, EVP UUID); a
 * CPF/CNPJ key must be the seller's own document; a phone key is written with `+55`. At most 5 keys, no duplicates:
 * both checked under the seller row's lock, so concurrent adds cannot pass together. Every add and delete is audited
 * (log line and feed item, in the change's transaction) and mailed to the owners after commit. Replies show the key
 * masked only. A new key waits 24 h before a withdrawal may go to it (DESIGN §11), unless it is the seller's own
 * CPF/CNPJ: someone holding a session must not be able to add their own key and empty the balance before the owners'
 * mail about the key is read.
 */
import { getPixKeyInfo } from "@brazilian-utils/brazilian-utils";
import type { PayoutKey, Repositories } from "@lm/db";
import { type Mailer, payoutKeyChangedMail } from "@lm/mail";
import type { Config } from "@lm/config";
import { sendMailSafely } from "../accounts/account-deps";
import { audited, type CredentialDeps, type PanelActor } from "../audit/security-audit";
import { maskTaxDocument } from "../documents";
import { ApiError, notFound, validationFailed } from "../errors";
import { isId, newId } from "../ids";
import type { PageArgs } from "../paging";
import { isSellersOwnDocument } from "../sellers/seller-document";

/** Most payout keys a seller may have at once. */
export const MAX_PAYOUT_KEYS = 5;

/** How long after it was added a payout key takes withdrawals (DESIGN §11 "Account-takeover guards"), ms. */
export const PAYOUT_KEY_COOLING_OFF_MS = 24 * 3_600_000;

/** Kind of a payout key. */
export type PayoutKeyType = PayoutKey["type"];

/** Body of `POST /v1/me/payout-keys`. */
export interface PayoutKeyInput {
  type: PayoutKeyType;
  key: string;
}

/** The masked form of a key in its DICT form: enough to recognise it, never enough to use it. */
export function maskPayoutKey(type: PayoutKeyType, value: string): string {
  if (type === "cpf" || type === "cnpj") return maskTaxDocument(value);
  if (type === "email") {
    const [local = "", domain = ""] = value.split("@");
    return `${local.slice(0, 1)}***@${domain}`;
  }
  if (type === "phone") return `${value.slice(0, 5)}*****${value.slice(-4)}`;
  return `${value.slice(0, 8)}-****-****-****-********${value.slice(-4)}`;
}

/**
 * Validates `input` for seller `sellerId` (`encryptionKey`: `config.encryptionKey`, for the own-document check).
 * @returns the key to store (null for CPF/CNPJ, which is the seller's document) and its masked form
 * @throws ApiError `validation_failed` (param `key`) when the key is not a valid key of its type, a phone lacks
 *   `+55`, or a CPF/CNPJ is not the seller's own
 */
export async function readPayoutKey(
  repos: Repositories,
  encryptionKey: Buffer,
  sellerId: string,
  input: PayoutKeyInput,
): Promise<{ key: string | null; keyMasked: string }> {
  const info = getPixKeyInfo(input.key);
  const phoneWithoutCountry = input.type === "phone" && !input.key.trim().startsWith("+55");
  if (!info || info.type !== input.type || phoneWithoutCountry) {
    throw validationFailed(
      `key is not a valid ${input.type} Pix key${input.type === "phone" ? " (+55, DDD and a mobile number)" : ""}.`,
      "key",
    );
  }
  if (info.type === "cpf" || info.type === "cnpj") {
    if (!(await isSellersOwnDocument(repos, encryptionKey, sellerId, info.value))) {
      throw validationFailed("A CPF or CNPJ payout key must be the seller's own document.", "key");
    }
    return { key: null, keyMasked: maskPayoutKey(info.type, info.value) };
  }
  return { key: info.value, keyMasked: maskPayoutKey(info.type, info.value) };
}

/** What the payout-key use cases need: the audit's dependencies and the mailer. */
export type PayoutKeyDeps = CredentialDeps & { mailer: Mailer; config: Pick<Config, "encryptionKey"> };

async function mailOwners(deps: PayoutKeyDeps, key: PayoutKey, change: "added" | "deleted", at: Date): Promise<void> {
  const owners = await deps.repos.accounts.listOwnersOfSeller(key.seller_id);
  for (const owner of owners) {
    const mail = payoutKeyChangedMail(owner.email, owner.name, {
      change,
      type: key.type,
      keyMasked: key.key_masked,
      at,
    });
    await sendMailSafely(deps, mail, `payout key ${change}`);
  }
}

/**
 * Adds a payout key for `actor`'s seller.
 * @returns the key
 * @throws ApiError `validation_failed` (param `key`); `invalid_state` for a sixth key or a duplicate
 */
export async function addPayoutKey(deps: PayoutKeyDeps, actor: PanelActor, input: PayoutKeyInput): Promise<PayoutKey> {
  const { key, keyMasked } = await readPayoutKey(deps.repos, deps.config.encryptionKey, actor.sellerId, input);
  const now = deps.now();
  const created = await audited(deps, actor, async (tx) => {
    await tx.payoutKeys.lockSellerForPayoutKeys(actor.sellerId);
    const active = await tx.payoutKeys.listActivePayoutKeysOfSeller(actor.sellerId);
    if (active.some((k) => k.type === input.type && k.key === key)) {
      throw new ApiError("invalid_state", "This payout key is already registered.", { param: "key" });
    }
    if (active.length >= MAX_PAYOUT_KEYS)
      throw new ApiError("invalid_state", `A seller may have at most ${MAX_PAYOUT_KEYS} payout keys.`);
    const row = await tx.payoutKeys.insertPayoutKey({
      id: newId("payoutKey", now.getTime()),
      seller_id: actor.sellerId,
      type: input.type,
      key,
      key_masked: keyMasked,
      created_at: now,
    });
    return {
      result: row,
      action: {
        event: "payout_key.added",
        details: { payout_key_id: row.id, payout_key_type: row.type },
        title: "Payout key added",
        message: `The ${row.type} payout key ${row.key_masked} was added; withdrawals can now be paid to it.`,
      },
    };
  });
  await mailOwners(deps, created, "added", now);
  return created;
}

/** One page of the seller's payout keys (not deleted), in the page's order. */
export function listPayoutKeys(repos: Repositories, sellerId: string, page: PageArgs): Promise<PayoutKey[]> {
  return repos.payoutKeys.listPayoutKeysPage(sellerId, page);
}

/**
 * Payout key `id` of seller `sellerId`, not deleted.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, deleted or another seller's
 */
export async function findPayoutKey(repos: Repositories, sellerId: string, id: string): Promise<PayoutKey> {
  const found = isId("payoutKey", id) ? await repos.payoutKeys.findActivePayoutKeyOfSeller(sellerId, id) : null;
  if (!found) throw notFound("payout key");
  return found;
}

/**
 * Whether `key` is a CPF/CNPJ key: the seller's own document (checked when it was added, {@link readPayoutKey}), the
 * one destination a withdrawal may use at once.
 */
export function isOwnDocumentKey(key: Pick<PayoutKey, "type">): boolean {
  return key.type === "cpf" || key.type === "cnpj";
}

/**
 * Lets a withdrawal go to `key` only once it was added {@link PAYOUT_KEY_COOLING_OFF_MS} before `now`, or at once
 * when it is a CPF/CNPJ key: such a key is the seller's own document (checked when it was added, {@link readPayoutKey};
 * it stores no value of its own and is paid to the seller's document).
 * @throws ApiError `payout_key_cooling_off` (403) while the key is younger
 */
export function assertPayoutKeyCooledOff(key: Pick<PayoutKey, "type" | "created_at">, now: Date): void {
  if (isOwnDocumentKey(key)) return;
  const from = new Date(key.created_at.getTime() + PAYOUT_KEY_COOLING_OFF_MS);
  if (from <= now) return;
  throw new ApiError(
    "payout_key_cooling_off",
    `This payout key was added less than 24 hours ago; withdrawals to it are allowed from ${from.toISOString()}.`,
  );
}

/**
 * Deletes payout key `id` of `actor`'s seller (soft: withdrawals made to it keep naming it).
 * @throws ApiError `resource_not_found`
 */
export async function deletePayoutKey(deps: PayoutKeyDeps, actor: PanelActor, id: string): Promise<void> {
  const now = deps.now();
  const deleted = await audited(deps, actor, async (tx) => {
    const key = await findPayoutKey(tx, actor.sellerId, id);
    if (!(await tx.payoutKeys.softDeletePayoutKey(key.id, now))) throw notFound("payout key");
    return {
      result: key,
      action: {
        event: "payout_key.deleted",
        details: { payout_key_id: key.id, payout_key_type: key.type },
        title: "Payout key deleted",
        message: `The ${key.type} payout key ${key.key_masked} was deleted.`,
      },
    };
  });
  await mailOwners(deps, deleted, "deleted", now);
}
