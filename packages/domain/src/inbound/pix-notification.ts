/**
 * The inbound notification body: the central bank's Pix webhook shape (Bacen Pix API, `POST {webhookUrl}/pix`):
 * `{pix: [{endToEndId, txid, valor, horario, infoPagador?, devolucoes?}]}`, one item per payment. Acquirers commonly
 * add the payer (`pagador: {nome, cpf | cnpj}`, as in the `cob` resource's `devedor`); it is read when present.
 * Three kinds of item (DESIGN §7): a received payment; a payment whose `devolucoes` (Bacen's `Devolucao`: `{id, rtrId,
 * valor, horario, status: EM_PROCESSAMENTO | DEVOLVIDO | NAO_REALIZADO, motivo?}`) report refunds, one entry per
 * devolução keyed by its `rtrId` and status; and a payment we sent (a withdrawal), which carries our id in `idEnvio`
 * and a `status` of `EM_PROCESSAMENTO | REALIZADO | NAO_REALIZADO` (the acquirers' "Pix enviado" notification),
 * keyed by its `endToEndId` and status. Parsing never throws: whatever arrives is stored first (as bytes) and judged afterwards.
 * A body that is not UTF-8 JSON is unreadable; text read from it must be storable (PostgreSQL text holds no NUL): an identifier holding
 * anything but printable ASCII makes the item malformed, and the payer's name is kept with NUL and lone surrogates
 * replaced.
 */
import { createHash } from "node:crypto";
import { centavosFromValor } from "@lm/pix-api";
import { parseTaxDocument, type TaxDocument } from "../documents";
import { toStorableText } from "../text/storable-text";
import { PAYMENT_TXID_PATTERN } from "../transactions/txid";

/** The `endToEndId` bound we accept (Bacen's is 32 characters); longer ones are malformed. */
const MAX_END_TO_END_ID_LENGTH = 64;
/** An `endToEndId` we store: printable ASCII (Bacen's are 32 letters and digits). */
const END_TO_END_ID_PATTERN = /^[\x21-\x7e]+$/;
/** Longest payer name kept, characters. */
const MAX_PAYER_NAME_LENGTH = 200;

/**
 * The identity each notified payment is stored and deduplicated under: its `endToEndId`, or for an item or body that
 * has none, `sha256:<digest of the body>[:<item index>]`.
 */
export interface NotificationEntry {
  providerEventId: string;
  /** The item's `endToEndId` (a devolução's `rtrId`); null when it has none (then the entry is malformed). */
  endToEndId: string | null;
  /** What the entry reports, stored as the inbox item's `event_type`. */
  kind: NotificationKind;
}

/**
 * A received payment (`pix`), a refund's outcome (`devolucao`) or a withdrawal's (`pix_enviado`); or, from a bank's
 * Pix Automático webhooks (DESIGN §14 "Live"), a recurrence's change (`rec`, posted to `/rec` as `{recs: [...]}`) or
 * a cycle charge's (`cobr`, posted to `/cobr` as `{cobsr: [...]}`), whose entry is keyed by the recurrence's `idRec`
 * or the charge's txid (in `endToEndId`) and a digest of the item, so each distinct report is processed once.
 */
export type NotificationKind = "pix" | "devolucao" | "pix_enviado" | "rec" | "cobr";

/** The Pix Automático lists of a body, their kind, and the field naming each item (the standard's 29-character
 *  `idRec`, the charge's 26 to 35-character `txid`). */
const RECURRENCE_LISTS = [
  { list: "recs", kind: "rec", id: "idRec", pattern: /^[a-zA-Z0-9]{29}$/ },
  { list: "cobsr", kind: "cobr", id: "txid", pattern: /^[a-zA-Z0-9]{26,35}$/ },
] as const;

/** The entries of a Pix Automático body (`{recs}` or `{cobsr}`), or null when it is not one. */
function recurrenceEntries(rawBody: Uint8Array, digest: string): NotificationEntry[] | null {
  const body = parseJson(rawBody);
  for (const { list, kind, id, pattern } of RECURRENCE_LISTS) {
    const items = field(body, list);
    if (!Array.isArray(items) || items.length === 0) continue;
    return items.map((item, index) => {
      const named = field(item, id);
      const key = typeof named === "string" && pattern.test(named) ? named : null;
      const itemDigest = createHash("sha256").update(JSON.stringify(item)).digest("hex").slice(0, 32);
      return {
        providerEventId: key === null ? `${digest}:${index}` : `${kind}:${key}:${itemDigest}`,
        endToEndId: key,
        kind,
      };
    });
  }
  return null;
}

/** The outcome an acquirer reports for a refund or a withdrawal it was asked to make. */
export type TransferStatus = "processing" | "succeeded" | "failed";

/** A devolução's outcome (`kind` `devolucao`). */
export interface RefundOutcome {
  /** Our refund id, sent as the devolução `id` when requesting it. */
  refundId: string;
  /** `rtrId`: the return's own end-to-end id. */
  returnId: string;
  /** Integer centavos, from `valor`. */
  amount: number;
  status: TransferStatus;
  /** `motivo`, when the acquirer gave one. */
  reason: string | null;
  /** The returned payment's `endToEndId` (the item that carries the devolução). */
  paymentEndToEndId: string | null;
  /** `natureza`: `ORIGINAL`, `RETIRADA`, or `MED_…` for a return the payer's bank made under the MED. */
  nature: string | null;
}

/** A sent payment's outcome (`kind` `pix_enviado`). */
export interface PayoutOutcome {
  /** Our withdrawal id, sent as `idEnvio`. */
  withdrawalId: string;
  endToEndId: string;
  /** Integer centavos, from `valor`. */
  amount: number;
  status: TransferStatus;
  reason: string | null;
}

/** Bacen's and the acquirers' status words, by what they mean. */
const TRANSFER_STATUSES: Record<string, TransferStatus> = {
  EM_PROCESSAMENTO: "processing",
  DEVOLVIDO: "succeeded",
  REALIZADO: "succeeded",
  NAO_REALIZADO: "failed",
};

/** A readable payment item. */
export interface PixPayment {
  endToEndId: string;
  txid: string;
  /** Integer centavos, from `valor`. */
  amount: number;
  /** `horario`: when the payment was made. */
  paidAt: Date;
  payerName: string | null;
  payerDocument: TaxDocument | null;
  /** What `amount` is made of, as the bank reports it (`componentesValor`), when it does and every part reads. */
  components: PaymentComponents | null;
}

/**
 * The parts of a payment's amount (`componentesValor`, DESIGN §13), integer centavos; a part the bank leaves out is
 * 0. For a due-date charge: original + fine + interest − reduction − discount = the amount paid. (A type, not an
 * interface, so that it is the JSON value the `payment_components` column takes.)
 */
export type PaymentComponents = {
  original: number;
  fine: number;
  interest: number;
  reduction: number;
  discount: number;
};

/** Our name of each part of `componentesValor` the standard defines for a due-date charge. */
const COMPONENT_NAMES = {
  original: "original",
  fine: "multa",
  interest: "juros",
  reduction: "abatimento",
  discount: "desconto",
} as const satisfies Record<keyof PaymentComponents, string>;

/** `componentesValor` read as centavos; null when absent, or when a part is present but not `{valor}` of an amount. */
function componentsOf(value: unknown): PaymentComponents | null {
  if (typeof value !== "object" || value === null) return null;
  const parts = {} as PaymentComponents;
  for (const [ours, theirs] of Object.entries(COMPONENT_NAMES) as [keyof PaymentComponents, string][]) {
    const part = (value as Record<string, unknown>)[theirs];
    if (part === undefined) {
      parts[ours] = 0;
      continue;
    }
    const centavos = centavosFromValor(field(part, "valor"));
    if (centavos === null) return null;
    parts[ours] = centavos;
  }
  return parts;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The body as JSON, or undefined when it is not UTF-8 JSON. */
function parseJson(rawBody: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(rawBody));
  } catch {
    return undefined;
  }
}

/** The `pix` items of a notification body; null when it is not UTF-8 JSON with at least one. */
export function pixItems(rawBody: Uint8Array): unknown[] | null {
  const body = parseJson(rawBody);
  const pix = typeof body === "object" && body !== null ? (body as { pix?: unknown }).pix : undefined;
  return Array.isArray(pix) && pix.length > 0 ? pix : null;
}

function endToEndIdOf(item: unknown): string | null {
  const value = typeof item === "object" && item !== null ? (item as { endToEndId?: unknown }).endToEndId : undefined;
  return typeof value === "string" && value.length <= MAX_END_TO_END_ID_LENGTH && END_TO_END_ID_PATTERN.test(value)
    ? value
    : null;
}

/**
 * The entries of a notification body, one per `pix` item (or `recs` / `cobsr` item); a body that is not JSON or has no
 * items gives one entry with a null `endToEndId`.
 */
export function notificationEntries(rawBody: Uint8Array): NotificationEntry[] {
  const digest = `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
  const recurrences = recurrenceEntries(rawBody, digest);
  if (recurrences !== null) return recurrences;
  const items = pixItems(rawBody);
  if (items === null) return [{ providerEventId: digest, endToEndId: null, kind: "pix" }];
  return items.flatMap((item, index): NotificationEntry[] => {
    const devolucoes = field(item, "devolucoes");
    if (Array.isArray(devolucoes) && devolucoes.length > 0) {
      return devolucoes.map((devolucao, position) => {
        const returnId = idOf(devolucao, "rtrId");
        const key =
          returnId === null ? `${digest}:${index}:${position}` : `${returnId}:${String(field(devolucao, "status"))}`;
        return { providerEventId: key, endToEndId: returnId, kind: "devolucao" };
      });
    }
    const endToEndId = endToEndIdOf(item);
    if (field(item, "idEnvio") !== undefined) {
      const key = endToEndId === null ? `${digest}:${index}` : `${endToEndId}:${String(field(item, "status"))}`;
      return [{ providerEventId: key, endToEndId, kind: "pix_enviado" }];
    }
    return [{ providerEventId: endToEndId ?? `${digest}:${index}`, endToEndId, kind: "pix" }];
  });
}

/** Field `name` of a JSON object, or undefined for anything else. */
export function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function idOf(value: unknown, name: string): string | null {
  const id = field(value, name);
  return typeof id === "string" && id.length >= 1 && id.length <= MAX_END_TO_END_ID_LENGTH ? id : null;
}

function reasonOf(value: unknown): string | null {
  const reason = field(value, "motivo");
  return typeof reason === "string" && reason.trim() !== "" ? reason.trim().slice(0, 140) : null;
}

/**
 * The devolução `returnId` (its `rtrId`) of `rawBody`, read and checked.
 * @returns the outcome, or null when it is missing or its `id`, `valor` or `status` is malformed
 */
export function readRefundOutcome(rawBody: Uint8Array, returnId: string): RefundOutcome | null {
  const [found] = (pixItems(rawBody) ?? []).flatMap((item) => {
    const list = field(item, "devolucoes");
    const devolucao = Array.isArray(list) ? list.find((candidate) => idOf(candidate, "rtrId") === returnId) : undefined;
    return devolucao === undefined ? [] : [{ item, devolucao }];
  });
  const refundId = idOf(found?.devolucao, "id");
  const amount = centavosFromValor(field(found?.devolucao, "valor"));
  const status = TRANSFER_STATUSES[String(field(found?.devolucao, "status"))];
  if (found === undefined || refundId === null || amount === null || status === undefined) return null;
  const nature = field(found.devolucao, "natureza");
  return {
    refundId,
    returnId,
    amount,
    status,
    reason: reasonOf(found.devolucao),
    paymentEndToEndId: endToEndIdOf(found.item),
    nature: typeof nature === "string" && nature !== "" ? nature.slice(0, 40) : null,
  };
}

/**
 * The sent payment `endToEndId` of `rawBody`, read and checked.
 * @returns the outcome, or null when it is missing or its `idEnvio`, `valor` or `status` is malformed
 */
export function readPayoutOutcome(rawBody: Uint8Array, endToEndId: string): PayoutOutcome | null {
  const item = (pixItems(rawBody) ?? []).find(
    (candidate) => field(candidate, "idEnvio") !== undefined && endToEndIdOf(candidate) === endToEndId,
  );
  const withdrawalId = idOf(item, "idEnvio");
  const amount = centavosFromValor(field(item, "valor"));
  const status = TRANSFER_STATUSES[String(field(item, "status"))];
  if (withdrawalId === null || amount === null || status === undefined) return null;
  return { withdrawalId, endToEndId, amount, status, reason: reasonOf(item) };
}

/**
 * The payment item `endToEndId` of `rawBody`, read and checked.
 * @returns the payment, or null when the item is missing or a required field (`txid`, `valor`, `horario`) is malformed
 */
export function readPixPayment(rawBody: Uint8Array, endToEndId: string): PixPayment | null {
  const item = pixItems(rawBody)?.find((candidate) => endToEndIdOf(candidate) === endToEndId) as
    { txid?: unknown; valor?: unknown; horario?: unknown; pagador?: unknown; componentesValor?: unknown } | undefined;
  if (!item) return null;
  const amount = centavosFromValor(item.valor);
  const paidAt = typeof item.horario === "string" ? new Date(item.horario) : new Date(Number.NaN);
  if (
    typeof item.txid !== "string" ||
    !PAYMENT_TXID_PATTERN.test(item.txid) ||
    amount === null ||
    Number.isNaN(paidAt.getTime())
  )
    return null;
  const payer = (typeof item.pagador === "object" && item.pagador !== null ? item.pagador : {}) as {
    nome?: unknown;
    cpf?: unknown;
    cnpj?: unknown;
  };
  const document = typeof payer.cpf === "string" ? payer.cpf : typeof payer.cnpj === "string" ? payer.cnpj : null;
  const payerName =
    typeof payer.nome === "string" ? toStorableText(payer.nome.trim().slice(0, MAX_PAYER_NAME_LENGTH)) : "";
  return {
    endToEndId,
    txid: item.txid,
    amount,
    paidAt,
    payerName: payerName === "" ? null : payerName,
    payerDocument: document === null ? null : parseTaxDocument(document),
    components: componentsOf(item.componentesValor),
  };
}
