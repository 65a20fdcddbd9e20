/**
 * The inbound notification body: the central bank's Pix webhook shape (Bacen Pix API, `POST {webhookUrl}/pix`):
 * `{pix: [{endToEndId, txid, valor, horario, infoPagador?, devolucoes?}]}`, one item per payment. Acquirers commonly
 * add the payer (`pagador: {nome, cpf | cnpj}`, as in the `cob` resource's `devedor`); it is read when present.
 * Parsing never throws: whatever arrives is stored first (as bytes) and judged afterwards. A body that is not UTF-8
 * JSON is unreadable; text read from it must be storable (issue 10): an identifier holding anything but printable
 * ASCII makes the item malformed, and the payer's name is kept with NUL and lone surrogates replaced.
 */
import { createHash } from "node:crypto";
import { parseTaxDocument, type TaxDocument } from "../documents";
import { toStorableText } from "../text/storable-text";
import { TXID_PATTERN } from "../transactions/txid";

/** The `endToEndId` bound we accept (Bacen's is 32 characters); longer ones are malformed. */
const MAX_END_TO_END_ID_LENGTH = 64;
/** An `endToEndId` we store: printable ASCII (Bacen's are 32 letters and digits). */
const END_TO_END_ID_PATTERN = /^[\x21-\x7e]+$/;
/** Longest payer name kept, characters. */
const MAX_PAYER_NAME_LENGTH = 200;
/** `valor`: decimal reais with exactly two decimals, e.g. `"10.50"` (Bacen `^\d{1,10}\.\d{2}$`). */
const VALOR_PATTERN = /^(\d{1,10})\.(\d{2})$/;

/**
 * The identity each notified payment is stored and deduplicated under: its `endToEndId`, or for an item or body that
 * has none, `sha256:<digest of the body>[:<item index>]`.
 */
export interface NotificationEntry {
  providerEventId: string;
  /** The item's `endToEndId`; null when it has none (then the entry is malformed). */
  endToEndId: string | null;
}

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

function pixItems(rawBody: Uint8Array): unknown[] | null {
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
 * The entries of a notification body, one per `pix` item; a body that is not JSON or has no `pix` items gives one
 * entry with a null `endToEndId`.
 */
export function notificationEntries(rawBody: Uint8Array): NotificationEntry[] {
  const digest = `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
  const items = pixItems(rawBody);
  if (items === null) return [{ providerEventId: digest, endToEndId: null }];
  return items.map((item, index) => {
    const endToEndId = endToEndIdOf(item);
    return { providerEventId: endToEndId ?? `${digest}:${index}`, endToEndId };
  });
}

/** Centavos of a Bacen `valor` (`"10.50"` → 1050), computed on the digits (no floating point); null if malformed. */
export function centavosFromValor(valor: unknown): number | null {
  const match = typeof valor === "string" ? VALOR_PATTERN.exec(valor) : null;
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

/** A Bacen `valor` for `centavos` (1050 → `"10.50"`). */
export function valorFromCentavos(centavos: number): string {
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, "0")}`;
}

/**
 * The payment item `endToEndId` of `rawBody`, read and checked.
 * @returns the payment, or null when the item is missing or a required field (`txid`, `valor`, `horario`) is malformed
 */
export function readPixPayment(rawBody: Uint8Array, endToEndId: string): PixPayment | null {
  const item = pixItems(rawBody)?.find((candidate) => endToEndIdOf(candidate) === endToEndId) as
    | { txid?: unknown; valor?: unknown; horario?: unknown; pagador?: unknown }
    | undefined;
  if (!item) return null;
  const amount = centavosFromValor(item.valor);
  const paidAt = typeof item.horario === "string" ? new Date(item.horario) : new Date(Number.NaN);
  if (typeof item.txid !== "string" || !TXID_PATTERN.test(item.txid) || amount === null || Number.isNaN(paidAt.getTime())) return null;
  const payer = (typeof item.pagador === "object" && item.pagador !== null ? item.pagador : {}) as {
    nome?: unknown;
    cpf?: unknown;
    cnpj?: unknown;
  };
  const document = typeof payer.cpf === "string" ? payer.cpf : typeof payer.cnpj === "string" ? payer.cnpj : null;
  const payerName = typeof payer.nome === "string" ? toStorableText(payer.nome.trim().slice(0, MAX_PAYER_NAME_LENGTH)) : "";
  return {
    endToEndId,
    txid: item.txid,
    amount,
    paidAt,
    payerName: payerName === "" ? null : payerName,
    payerDocument: document === null ? null : parseTaxDocument(document),
  };
}
