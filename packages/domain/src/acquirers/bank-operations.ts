/**
 * Operating a bank acquirer (DESIGN §9 "Configuration", "Reconciliation"): what the operators' commands
 * `acquirer:configure`, `acquirer:activate`, `acquirer:check`, `acquirer:register-webhook` and
 * `acquirer:reconcile` do, and the worker's `acquirer-reconciliation` sweep. Credentials are stored encrypted and
 * never echoed.
 */
import type { Acquirer } from "@lm/db";
import type { Pix } from "@lm/pix-api";
import type { UseCaseDeps } from "../deps";
import { ApiError, notFound, validationFailed } from "../errors";
import { newId } from "../ids";
import { forgetActiveAcquirers } from "./acquirer-port";
import {
  createAcquirer,
  SANDBOX_ACQUIRER_SLUG,
  INBOX_ERRORS,
  enqueueReceivedInboxItems,
  notificationEntries,
} from "../inbound";
import {
  atBank,
  BANK_PROFILES,
  bankClient,
  bankIdOf,
  encryptBankCredentials,
  payoutItem,
  readBackDevolucao,
  type BankCredentials,
} from "./bank-acquirer";
import { ACCOUNT_TYPES } from "./bank-recurrences";

/** What `acquirer:configure` takes. */
export interface BankConnectionInput {
  slug: string;
  profile: string;
  /** Base URL the standard's paths are appended to. */
  apiUrl: string;
  tokenUrl: string;
  clientId: string;
  credentials: BankCredentials;
  /** The account's Pix key (chave). */
  pixKey: string;
  /**
   * The receiving account Pix Automático's cycle charges name (`--account <branch>/<number>`), for a bank that serves
   * Pix Automático; with its type (`--account-type`, a key of {@link ACCOUNT_TYPES}).
   */
  account?: string;
  accountType?: string;
}

/** `<branch>/<number>`: up to 4 digits of agência, up to 20 of conta (with its check digit), as `cobr` takes them. */
const ACCOUNT_PATTERN = /^(\d{1,4})\/(\d{1,20})$/;

/**
 * The account columns of `input` (all null without `--account`).
 * @throws ApiError `validation_failed` (param `account` or `account-type`) for a malformed account, a type without
 *   an account or an account without a known type
 */
function accountColumns(input: BankConnectionInput) {
  if (input.account === undefined) {
    if (input.accountType !== undefined) throw validationFailed("--account-type needs --account.", "account");
    return { account_branch: null, account_number: null, account_type: null };
  }
  const match = ACCOUNT_PATTERN.exec(input.account);
  if (match === null) throw validationFailed("The account must be <branch>/<number>, digits only.", "account");
  const type = ACCOUNT_TYPES[input.accountType as keyof typeof ACCOUNT_TYPES];
  if (input.accountType === undefined || type === undefined) {
    throw validationFailed(`The account type must be one of ${Object.keys(ACCOUNT_TYPES).join(", ")}.`, "account-type");
  }
  return { account_branch: match[1] as string, account_number: match[2] as string, account_type: type };
}

/** An `https:` URL, or null. */
function httpsUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

/**
 * Stores bank acquirer `input.slug`'s connection (creating the acquirer if it does not exist), its client secret and
 * certificate encrypted with `ENCRYPTION_KEY`.
 * @throws ApiError `validation_failed` naming the bad option (`profile`, `api-url`, `token-url`, `client-id`,
 *   `pix-key`, `cert-file` when neither a certificate and key nor a PFX is given, `account`, `account-type`, `slug` for
 *   the sandbox's)
 */
export async function configureBankAcquirer(
  deps: Pick<UseCaseDeps, "repos" | "config">,
  input: BankConnectionInput,
): Promise<Acquirer> {
  if (input.slug === SANDBOX_ACQUIRER_SLUG) throw validationFailed("The sandbox is not a bank.", "slug");
  if (!(BANK_PROFILES as readonly string[]).includes(input.profile)) {
    throw validationFailed(`Profile must be one of ${BANK_PROFILES.join(", ")}.`, "profile");
  }
  const apiUrl = httpsUrl(input.apiUrl);
  if (apiUrl === null) throw validationFailed("The API URL must be an https URL.", "api-url");
  const tokenUrl = httpsUrl(input.tokenUrl);
  if (tokenUrl === null) throw validationFailed("The token URL must be an https URL.", "token-url");
  if (input.clientId.trim() === "") throw validationFailed("The client id is required.", "client-id");
  if (input.pixKey.trim() === "" || input.pixKey.length > 77) {
    throw validationFailed("The Pix key must be 1 to 77 characters.", "pix-key");
  }
  const account = accountColumns(input);
  const { credentials } = input;
  const pem = credentials.certPem !== undefined && credentials.keyPem !== undefined;
  if (pem === (credentials.pfxBase64 !== undefined)) {
    throw validationFailed("Give either a certificate and its key, or a PFX.", "cert-file");
  }
  const acquirer =
    (await deps.repos.acquirers.findAcquirerBySlug(input.slug)) ??
    (await createAcquirer(deps.repos, deps.config, input.slug)).acquirer;
  return deps.repos.acquirers.updateAcquirerConnection(acquirer.id, {
    profile: input.profile,
    api_url: apiUrl,
    token_url: tokenUrl,
    client_id: input.clientId.trim(),
    credentials_ciphertext: encryptBankCredentials(deps.config.encryptionKey, acquirer.id, credentials),
    pix_key: input.pixKey.trim(),
    ...account,
  });
}

/**
 * Bank acquirer `slug`.
 * @throws ApiError `resource_not_found` for an unknown slug; `invalid_state` when it has no bank connection
 */
async function findBankAcquirer(deps: Pick<UseCaseDeps, "repos">, slug: string): Promise<Acquirer> {
  const acquirer = await deps.repos.acquirers.findAcquirerBySlug(slug);
  if (acquirer === undefined) throw notFound("acquirer");
  if (acquirer.profile === null) {
    throw new ApiError("invalid_state", `Acquirer ${slug} is not a configured bank; run acquirer:configure first.`);
  }
  return acquirer;
}

/**
 * Makes bank acquirer `slug` the one that registers `mode`'s charges and moves its money. Every process sees it
 * within `ACTIVE_ACQUIRER_CACHE_MS`.
 * @throws ApiError `resource_not_found`; `invalid_state` when it is not a configured bank, or already serves the
 *   other mode (its payments settle that mode's charges)
 */
export async function activateAcquirer(
  deps: Pick<UseCaseDeps, "repos" | "now">,
  slug: string,
  mode: "live" | "test",
): Promise<Acquirer> {
  const acquirer = await findBankAcquirer(deps, slug);
  if (!(await deps.repos.acquirers.activateAcquirerForMode(acquirer.id, mode, deps.now()))) {
    throw new ApiError(
      "invalid_state",
      `Acquirer ${slug} serves ${acquirer.mode} mode; configure another for ${mode}.`,
    );
  }
  forgetActiveAcquirers(deps);
  return acquirer;
}

/** The URL a bank posts acquirer `slug`'s notifications to (it appends `/pix`). */
export function bankWebhookUrl(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}/v1/acquirers/${slug}/notifications`;
}

/**
 * Checks bank acquirer `slug`'s connection (`acquirer:check`): a token, then `GET /webhook/{chave}`.
 * @returns the webhook URL the bank has registered for the key, or null
 * @throws ApiError `resource_not_found`, `invalid_state`; `acquirer_unavailable` or `acquirer_rejected`
 */
export async function checkBankAcquirer(
  deps: Pick<UseCaseDeps, "repos" | "config" | "connectBank">,
  slug: string,
): Promise<{ webhookUrl: string | null }> {
  const client = bankClient(deps, await findBankAcquirer(deps, slug));
  const webhook = await atBank(() => client.getWebhook());
  return { webhookUrl: webhook?.webhookUrl ?? null };
}

/**
 * Registers our notification URL for bank acquirer `slug`'s Pix key (`acquirer:register-webhook`,
 * `PUT /webhook/{chave}`), and for a bank that serves Pix Automático (one configured with its receiving account) the
 * same URL for its recurrences and their charges (`PUT /webhookrec`, `PUT /webhookcobr`: the bank appends `/rec` and
 * `/cobr`, DESIGN §14 "Live").
 * @returns the URL registered
 * @throws as {@link checkBankAcquirer}
 */
export async function registerBankWebhook(
  deps: Pick<UseCaseDeps, "repos" | "config" | "connectBank">,
  slug: string,
): Promise<string> {
  const acquirer = await findBankAcquirer(deps, slug);
  const client = bankClient(deps, acquirer);
  const url = bankWebhookUrl(deps.config.publicBaseUrl, slug);
  await atBank(() => client.registerWebhook(url));
  if (acquirer.account_number !== null) await atBank(() => client.registerRecurrenceWebhooks(url));
  return url;
}

/** How far before the watermark each reconciliation window starts: payments the bank listed late are not missed. */
export const RECONCILIATION_OVERLAP_MS = 10 * 60_000;
/** The first window of a bank never reconciled before reaches this far back. */
export const FIRST_RECONCILIATION_MS = 24 * 60 * 60_000;
/** How long a refund or payout the bank accepted may stay `processing` before the sweep reads it back. */
export const IN_FLIGHT_READ_BACK_AFTER_MS = 10 * 60_000;
/** Payments stored per inbox request by the reconciliation. */
const RECONCILED_PER_REQUEST = 100;

/** What one reconciliation of a bank found. */
export interface ReconciliationReport {
  slug: string;
  /** The window of received payments listed. */
  from: Date;
  to: Date;
  /** Payments listed by the bank, and those among them never received before (now stored and enqueued). */
  listed: number;
  stored: number;
  /** Refunds and payouts read back, and outcomes found (stored and enqueued). */
  readBack: number;
  settledFound: number;
}

/**
 * Stores `items` as inbox items of `acquirer` from the reconciliation (source `reconciliation`) and enqueues them;
 * processed like any notification (read back, then settled). An item the inbox holds already is a duplicate, not
 * processed again.
 * @param list - the callback body's list the items are reported in: `pix` (payments and their outcomes), or a Pix
 *   Automático report's `recs` or `cobsr` (DESIGN §14 "Live")
 * @returns how many were stored
 */
export async function storeReconciled(
  deps: UseCaseDeps,
  acquirer: Acquirer,
  items: object[],
  list: "pix" | "recs" | "cobsr" = "pix",
): Promise<number> {
  if (items.length === 0) return 0;
  const rawBody = Buffer.from(JSON.stringify({ [list]: items }), "utf8");
  const now = deps.now();
  const stored = await deps.repos.inbox.storeInboxItems({
    acquirer: { id: acquirer.id, secretCiphertext: acquirer.secret_ciphertext },
    signatureValid: true,
    rawBody,
    headers: {},
    receivedAt: now,
    duplicateError: INBOX_ERRORS.duplicate,
    source: "reconciliation",
    items: notificationEntries(rawBody).map((entry) => ({
      id: newId("inboxItem", now.getTime()),
      providerEventId: entry.providerEventId,
      eventType: entry.endToEndId === null ? null : entry.kind,
      endToEndId: entry.endToEndId,
      error: entry.endToEndId === null ? INBOX_ERRORS.malformed : null,
    })),
  });
  const fresh = stored.filter((row) => row.error === null);
  await enqueueReceivedInboxItems(
    deps,
    fresh.map((row) => row.id),
  );
  return fresh.length;
}

/** The payments among `page` never received from `acquirer` before, as payment items (their devoluções aside). */
async function unseenPayments(deps: UseCaseDeps, acquirer: Acquirer, page: Pix[]): Promise<object[]> {
  const received = await deps.repos.inbox.findReceivedProviderEventIds(
    acquirer.id,
    page.map((pix) => pix.endToEndId),
  );
  return page.filter((pix) => !received.has(pix.endToEndId)).map(({ devolucoes: _devolucoes, ...payment }) => payment);
}

/**
 * Reconciles bank acquirer `acquirer` (DESIGN §9): lists its received payments from the watermark (less
 * {@link RECONCILIATION_OVERLAP_MS}) or `options.since` to now, stores each never received before as an inbox item,
 * moves the watermark, then reads back its refunds and payouts still `processing` (those untouched for
 * {@link IN_FLIGHT_READ_BACK_AFTER_MS}, or all with `options.allInFlight`) and stores the outcomes it finds.
 * @throws PixApiError when the bank fails (the watermark stays where the last complete run left it)
 */
export async function reconcileBankAcquirer(
  deps: UseCaseDeps,
  acquirer: Acquirer,
  options: { since?: Date; allInFlight?: boolean } = {},
): Promise<ReconciliationReport> {
  const client = bankClient(deps, acquirer);
  const to = deps.now();
  const from =
    options.since ??
    new Date(
      (acquirer.reconciled_until?.getTime() ?? to.getTime() - FIRST_RECONCILIATION_MS) - RECONCILIATION_OVERLAP_MS,
    );
  let listed = 0;
  let stored = 0;
  let page: Pix[] = [];
  const flush = async () => {
    stored += await storeReconciled(deps, acquirer, await unseenPayments(deps, acquirer, page));
    page = [];
  };
  // A watermark ahead of this clock (another process's, or a clock set back) leaves no window to list now.
  if (from < to) {
    for await (const pix of client.listPayments({ from, to })) {
      listed++;
      page.push(pix);
      if (page.length === RECONCILED_PER_REQUEST) await flush();
    }
    await flush();
    await deps.repos.acquirers.advanceReconciliationWatermark(acquirer.id, to);
  }

  const untouchedSince = options.allInFlight ? to : new Date(to.getTime() - IN_FLIGHT_READ_BACK_AFTER_MS);
  const outcomes: object[] = [];
  const refunds = await deps.repos.acquirers.listRefundsInFlight(acquirer.id, untouchedSince);
  for (const refund of refunds) {
    const read = await readBackDevolucao(client, refund.paymentEndToEndId, bankIdOf(refund.id));
    if (read !== null && read.devolucao.status !== "EM_PROCESSAMENTO") outcomes.push(read.item);
  }
  const withdrawals = await deps.repos.acquirers.listWithdrawalsInFlight(acquirer.id, untouchedSince);
  for (const withdrawalId of withdrawals) {
    const payout = await client.getPayout(bankIdOf(withdrawalId));
    if (payout !== null && payout.status !== "EM_PROCESSAMENTO") outcomes.push(payoutItem(payout));
  }
  const settledFound = await storeReconciled(deps, acquirer, outcomes);
  return { slug: acquirer.slug, from, to, listed, stored, readBack: refunds.length + withdrawals.length, settledFound };
}

/**
 * `acquirer:reconcile <slug> --since <time>`: reconciles bank acquirer `slug` from `since`, reading back every refund
 * and payout still `processing`, whatever its age.
 * @throws ApiError `resource_not_found`, `invalid_state`; `acquirer_unavailable` or `acquirer_rejected`
 */
export async function reconcileAcquirerBySlug(
  deps: UseCaseDeps,
  slug: string,
  since: Date | undefined,
): Promise<ReconciliationReport> {
  const acquirer = await findBankAcquirer(deps, slug);
  return atBank(() =>
    reconcileBankAcquirer(deps, acquirer, { ...(since === undefined ? {} : { since }), allInFlight: true }),
  );
}

/**
 * The `acquirer-reconciliation` sweep: reconciles in turn every bank that has served a mode, active or since replaced
 * (its charges stay payable there, its refunds and payouts in flight); one bank's failure is logged and does not stop
 * the others.
 * @returns payments and outcomes stored
 */
export async function reconcileServingBankAcquirers(deps: UseCaseDeps): Promise<number> {
  let total = 0;
  for (const acquirer of await deps.repos.acquirers.listServingBankAcquirers()) {
    try {
      const report = await reconcileBankAcquirer(deps, acquirer);
      total += report.stored + report.settledFound;
      if (report.stored + report.settledFound > 0)
        deps.logger.warn("reconciliation found what no notification said", {
          ...report,
          from: report.from.toISOString(),
          to: report.to.toISOString(),
        });
    } catch (err) {
      deps.logger.error("acquirer reconciliation failed", { acquirer: acquirer.slug, err });
    }
  }
  return total;
}
