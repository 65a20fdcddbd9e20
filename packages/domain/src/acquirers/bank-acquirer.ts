/**
 * A bank reached through the Central Bank's API Pix standard (DESIGN §9), as an {@link AcquirerPort}: the `bcb`
 * adapter over the client `UseCaseDeps.connectBank` opens (OAuth2 client credentials and mutual TLS, `@lm/pix-api`),
 * with the `efi` profile's payouts. Immediate charges are the standard's `cob`, due-date charges its `cobv` (DESIGN
 * §13 "Live"), Pix Automático its `rec` and `cobr` (bank-recurrences.ts, DESIGN §14 "Live"). Its failures reach
 * merchants as `acquirer_unavailable` or `acquirer_rejected` (502). One client per configured acquirer is kept per
 * process (its keep-alive connections and its token), until the acquirer's row changes.
 *
 * The standard signs nothing, so what a bank posts is a hint: {@link confirmWithBank} reads every notified payment,
 * devolução and payout back over the authenticated channel and gives the body that processing judges.
 */
import type { Acquirer, ProcessableInboxItem } from "@lm/db";
import {
  PixApiError,
  type Cob,
  type CobV,
  type Devolucao,
  type PixApiClient,
  type PixPayout,
  type RegisterDueDateChargeInput,
} from "@lm/pix-api";
import type { UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { ID_PREFIX } from "../ids";
import { toCobvTerms } from "../due-dates";
import { decryptSecret, encryptSecret } from "../secret-box";
import type { AcquirerPort, BatchRegistration, ChargeRegistration } from "./acquirer-port";
import { bankRecurrences } from "./bank-recurrences";
import { field, pixItems } from "../inbound";

/** The API Pix profiles: the standard alone, or Efí's with its payout extension. */
export const BANK_PROFILES = ["bcb", "efi"] as const;

/** A bank's OAuth2 secret and mutual-TLS client certificate, as stored encrypted (`credentials_ciphertext`). */
export interface BankCredentials {
  clientSecret: string;
  /** PEM certificate and key, or a PKCS#12 bundle (base64) instead. */
  certPem?: string;
  keyPem?: string;
  pfxBase64?: string;
  /** PEM CA bundle the bank's server certificate must chain to, when not a public CA. */
  caPem?: string;
}

/** The envelope of `credentials` for acquirer `acquirerId` (AES-256-GCM, the id as associated data). */
export function encryptBankCredentials(
  encryptionKey: Buffer,
  acquirerId: string,
  credentials: BankCredentials,
): string {
  return encryptSecret(encryptionKey, JSON.stringify(credentials), acquirerId);
}

/** A configured acquirer's client, built once per process and row version. */
const clients = new Map<string, { version: number; client: PixApiClient }>();

/**
 * The API Pix client of bank acquirer `acquirer`, built from its row (credentials decrypted) and kept while the row
 * is unchanged.
 * @throws Error when the row has no bank connection (`acquirer:configure` was never run for it)
 */
export function bankClient(deps: Pick<UseCaseDeps, "config" | "connectBank">, acquirer: Acquirer): PixApiClient {
  const version = acquirer.updated_at.getTime();
  const kept = clients.get(acquirer.id);
  if (kept !== undefined && kept.version === version) return kept.client;
  const { profile, api_url, token_url, client_id, credentials_ciphertext, pix_key } = acquirer;
  if (profile === null || api_url === null || token_url === null || client_id === null || pix_key === null) {
    throw new Error(`acquirer ${acquirer.slug} has no bank connection`);
  }
  if (credentials_ciphertext === null) throw new Error(`acquirer ${acquirer.slug} has no credentials`);
  const credentials = JSON.parse(
    decryptSecret(deps.config.encryptionKey, credentials_ciphertext, acquirer.id),
  ) as BankCredentials;
  const client = deps.connectBank({
    profile: profile === "efi" ? "efi" : "bcb",
    apiUrl: api_url,
    tokenUrl: token_url,
    pixKey: pix_key,
    timeoutMs: deps.config.acquirerTimeoutMs,
    credentials: {
      clientId: client_id,
      clientSecret: credentials.clientSecret,
      ...(credentials.certPem === undefined ? {} : { certPem: credentials.certPem }),
      ...(credentials.keyPem === undefined ? {} : { keyPem: credentials.keyPem }),
      ...(credentials.pfxBase64 === undefined ? {} : { pfx: Buffer.from(credentials.pfxBase64, "base64") }),
      ...(credentials.caPem === undefined ? {} : { caPem: credentials.caPem }),
    },
  });
  kept?.client.close();
  clients.set(acquirer.id, { version, client });
  return client;
}

/**
 * The bank's failure as the merchant sees it (DESIGN §9 "Transport"): `acquirer_unavailable` when it could not be
 * reached or answered 5xx, `acquirer_rejected` with its reason when it refused; anything else is rethrown as is.
 */
export function acquirerError(err: unknown): unknown {
  if (!(err instanceof PixApiError)) return err;
  return err.kind === "unavailable"
    ? new ApiError("acquirer_unavailable", "The acquirer could not be reached; nothing was created. Try again.")
    : new ApiError("acquirer_rejected", `The acquirer refused the request: ${err.reason}`);
}

/** Runs a bank call, its failure mapped by {@link acquirerError}. */
export async function atBank<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw acquirerError(err);
  }
}

/** An end-to-end id or `rtrId` as the standard issues them: 32 letters and digits. */
const BANK_ID = /^[a-zA-Z0-9]{32}$/;

/** Our id without its type prefix: its ULID, which the standard's `[a-zA-Z0-9]{1,35}` ids accept. */
export function bankIdOf(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}

/** The id of ours that bank id `bankId` stands for (`kind`'s prefix put back; an id with a prefix is kept). */
export function ourIdOf(kind: "refund" | "withdrawal", bankId: string): string {
  return bankId.includes("_") ? bankId : `${ID_PREFIX[kind]}_${bankId}`;
}

/** Bank acquirer `acquirer` as an {@link AcquirerPort}. */
export function bankAcquirer(deps: UseCaseDeps, acquirer: Acquirer): AcquirerPort {
  const client = () => bankClient(deps, acquirer);
  return {
    slug: acquirer.slug,
    acquirerId: acquirer.id,
    sendsPayouts: acquirer.profile === "efi",
    pixKey() {
      if (acquirer.pix_key === null) throw new Error(`acquirer ${acquirer.slug} has no Pix key`);
      return acquirer.pix_key;
    },
    recurrences: bankRecurrences(acquirer, client, atBank),
    async registerCharge(charge) {
      const registered = await atBank<Cob | CobV | null>(async () => {
        if (charge.dueDate === null) {
          const { debtor, payerRequest } = standardParties(charge);
          return client().registerCharge({
            txid: charge.txid,
            amount: charge.amount,
            expiresIn: charge.expiresIn,
            ...(debtor === undefined ? {} : { debtor }),
            ...(payerRequest === undefined ? {} : { payerRequest }),
          });
        }
        const known = charge.registered === true ? await client().getDueDateCharge(charge.txid) : null;
        return known ?? client().registerDueDateCharge(dueDateRegistration(charge));
      });
      if (typeof registered?.pixCopiaECola !== "string" || registered.pixCopiaECola === "") {
        throw new ApiError("acquirer_rejected", "The acquirer registered the charge without a payable code.");
      }
      return { brCode: registered.pixCopiaECola };
    },
    async registerChargeBatch(batch) {
      const outcomes = await atBank(async () => {
        await client().registerDueDateChargeBatch(
          batch.number,
          batch.description,
          batch.charges.map(dueDateRegistration),
        );
        return client().getDueDateChargeBatch(batch.number);
      });
      const byTxid = new Map((outcomes?.cobsv ?? []).map((cobv) => [cobv.txid, cobv]));
      return new Map(
        batch.charges.map(({ txid }): [string, BatchRegistration] => {
          const outcome = byTxid.get(txid);
          if (outcome?.status === "CRIADA") return [txid, { status: "registered" }];
          if (outcome?.status !== "NEGADA") return [txid, { status: "unknown" }];
          const reason = outcome.problema?.detail ?? outcome.problema?.title ?? "refused";
          return [txid, { status: "refused", reason }];
        }),
      );
    },
    async cancelCharge(txid, dueDate) {
      const cob = await atBank(() => client().cancelCharge(txid, dueDate ? "cobv" : "cob"));
      return cob.status === "CONCLUIDA" ? "paid" : "canceled";
    },
    async refundPix(request) {
      const devolucao = await atBank(() =>
        client().refundPix({
          endToEndId: request.paymentEndToEndId,
          id: bankIdOf(request.refundId),
          amount: request.amount,
          ...(request.reason === null ? {} : { description: request.reason }),
        }),
      );
      return { returnId: devolucao.rtrId };
    },
    async sendPixPayment(request) {
      const payout = await atBank(() =>
        client().sendPixPayment({
          idEnvio: bankIdOf(request.withdrawalId),
          amount: request.amount,
          payeeKey: request.key.value,
        }),
      );
      return { endToEndId: payout.e2eId };
    },
  };
}

/** The standard's `devedor` and `solicitacaoPagador` of a charge to register, when it has them. */
function standardParties(charge: ChargeRegistration) {
  const { debtor, description } = charge;
  return {
    debtor: debtor === null ? undefined : { name: debtor.name, [debtor.document.kind]: debtor.document.digits },
    payerRequest: description ?? undefined,
  };
}

/**
 * Due-date charge `charge` as the API Pix client registers it (`cobv`).
 * @throws TypeError for a charge without terms or debtor (the creation checked both)
 */
function dueDateRegistration(charge: ChargeRegistration): RegisterDueDateChargeInput {
  const { debtor, payerRequest } = standardParties(charge);
  if (charge.dueDate === null || debtor === undefined) {
    throw new TypeError("a due-date charge is registered with its terms and debtor");
  }
  return {
    txid: charge.txid,
    terms: toCobvTerms(charge.dueDate),
    debtor,
    ...(payerRequest === undefined ? {} : { payerRequest }),
  };
}

/** The standard's body of one notified item: `{pix: [item]}`, as processing reads it. */
function pixBody(item: object): Uint8Array {
  return Buffer.from(JSON.stringify({ pix: [item] }), "utf8");
}

/** The notified `pix` item that carries devolução `returnId`, and that devolução's id. */
function notifiedDevolucao(rawBody: Uint8Array, returnId: string): { endToEndId: string; id: string } | null {
  for (const item of pixItems(rawBody) ?? []) {
    const list = field(item, "devolucoes");
    const found = (Array.isArray(list) ? list : []).find((entry) => field(entry, "rtrId") === returnId);
    const endToEndId = field(item, "endToEndId");
    const id = field(found, "id");
    if (typeof endToEndId === "string" && typeof id === "string") return { endToEndId, id: bankIdOf(id) };
  }
  return null;
}

/** The `idEnvio` of the notified `pix` item that reports payout `endToEndId`. */
function notifiedPayoutId(rawBody: Uint8Array, endToEndId: string): string | null {
  const item = (pixItems(rawBody) ?? []).find((entry) => field(entry, "endToEndId") === endToEndId);
  const idEnvio = field(item, "idEnvio");
  return typeof idEnvio === "string" ? bankIdOf(idEnvio) : null;
}

/**
 * What bank `acquirer` itself says of notified item `item` (DESIGN §9 "Inbound notifications"): the payment read back
 * with `GET /pix/{e2eid}`, the devolução with `GET /pix/{e2eid}/devolucao/{id}`, the payout with Efí's
 * `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`, each as the body `{pix: [item]}` that processing then judges instead
 * of the notification's.
 * @returns the confirmed body, or null when the bank does not know what the notification names
 * @throws Error when the bank cannot be asked now (the item's job is retried)
 */
export async function confirmWithBank(
  deps: Pick<UseCaseDeps, "config" | "connectBank">,
  acquirer: Acquirer,
  item: ProcessableInboxItem,
): Promise<Uint8Array | null> {
  const client = bankClient(deps, acquirer);
  // An id the standard could not have issued names nothing the bank could confirm: it is not asked.
  if (!BANK_ID.test(item.end_to_end_id)) return null;
  if (item.event_type === "devolucao") {
    const notified = notifiedDevolucao(item.raw_body, item.end_to_end_id);
    if (notified === null) return null;
    const read = await readBackDevolucao(client, notified.endToEndId, notified.id);
    return read === null || read.devolucao.rtrId !== item.end_to_end_id ? null : pixBody(read.item);
  }
  if (item.event_type === "pix_enviado") {
    const idEnvio = notifiedPayoutId(item.raw_body, item.end_to_end_id);
    const payout = idEnvio === null ? null : await client.getPayout(idEnvio);
    if (payout === null || payout.e2eId !== item.end_to_end_id) return null;
    return pixBody(payoutItem(payout));
  }
  const payment = await client.getPayment(item.end_to_end_id);
  return payment === null ? null : pixBody(payment);
}

/**
 * Devolução `id` (the bank's id: our refund's ULID, or the bank's own for a MED) of payment `endToEndId`, read back
 * from the bank with the payment it returns, and as the standard's notification item: the payment carrying that one
 * devolução, our refund id in its `id`.
 * @returns the devolução and the item, or null when the bank knows either not
 * @throws PixApiError when the bank cannot be asked now
 */
export async function readBackDevolucao(
  client: PixApiClient,
  endToEndId: string,
  id: string,
): Promise<{ devolucao: Devolucao; item: object } | null> {
  const [payment, devolucao] = await Promise.all([client.getPayment(endToEndId), client.getRefund(endToEndId, id)]);
  if (payment === null || devolucao === null) return null;
  return { devolucao, item: { ...payment, devolucoes: [{ ...devolucao, id: ourIdOf("refund", devolucao.id) }] } };
}

/** A payout as the standard's notification item of a sent Pix: our withdrawal id in `idEnvio`. */
export function payoutItem(payout: PixPayout): object {
  return {
    endToEndId: payout.e2eId,
    idEnvio: ourIdOf("withdrawal", payout.idEnvio),
    valor: payout.valor,
    horario: payout.horario.liquidacao ?? payout.horario.solicitacao,
    status: payout.status,
    ...(payout.motivo === undefined ? {} : { motivo: payout.motivo }),
  };
}
