/**
 * What the emulated bank keeps in memory, in its own terms (amounts in centavos, times as Dates). wire.ts writes
 * these as the standard's JSON.
 */
import type { DueDateTerms } from "@lm/domain/src/due-dates";

/** The payer of a received Pix, as the payer's bank reports it. */
export interface Payer {
  name: string;
  cpf?: string;
  cnpj?: string;
}

/** The standard's `CobrancaStatus`. */
export type ChargeStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP";

/**
 * A charge: immediate (`cob`) or with a due date (`cobv`), whose terms the emulator reads as the payer's bank does
 * (`fromCobvTerms`, DESIGN §13).
 */
export interface ChargeRecord {
  txid: string;
  kind: "cob" | "cobv";
  createdAt: Date;
  /** An immediate charge's lifetime from `createdAt`, seconds (`calendario.expiracao`). */
  expiresIn: number;
  /** A due-date charge's terms (amounts in centavos, dates `YYYY-MM-DD`); undefined for a `cob`. */
  dueDate?: DueDateTerms;
  revisao: number;
  status: ChargeStatus;
  /** `valor` as the client sent it (`original` and any modality fields), echoed back. */
  valor: Record<string, unknown>;
  /** `valor.original` in centavos. */
  amount: number;
  devedor?: Record<string, unknown>;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: unknown[];
  locId: number;
  location: string;
  pixCopiaECola: string;
  /** End-to-end ids of the payments received for it, oldest first. */
  payments: string[];
}

/** The standard's devolução statuses. */
export type RefundStatus = "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";

/** A devolução of a received Pix, requested by the client or unrequested (MED). */
export interface RefundRecord {
  id: string;
  rtrId: string;
  amount: number;
  natureza: string;
  descricao?: string;
  requestedAt: Date;
  settledAt?: Date;
  status: RefundStatus;
  motivo?: string;
}

/** What a received Pix's amount is made of (`componentesValor`), in centavos. */
export interface PaymentParts {
  original: number;
  fine: number;
  interest: number;
  reduction: number;
  discount: number;
}

/** A received Pix. */
export interface PaymentRecord {
  endToEndId: string;
  txid: string;
  amount: number;
  /** For a due-date charge's payment: the parts of `amount` the payer's bank applied. */
  parts?: PaymentParts;
  chave: string;
  receivedAt: Date;
  payer?: Payer;
  refunds: RefundRecord[];
}

/** Efí's payout statuses. */
export type PayoutStatus = "EM_PROCESSAMENTO" | "REALIZADO" | "NAO_REALIZADO";

/** A Pix the account sent (Efí's payout extension). */
export interface PayoutRecord {
  idEnvio: string;
  e2eId: string;
  amount: number;
  payerKey: string;
  infoPagador?: string;
  payeeKey: string;
  requestedAt: Date;
  settledAt?: Date;
  status: PayoutStatus;
  motivo?: string;
}

/** The account's registered webhook. */
export interface WebhookRecord {
  url: string;
  createdAt: Date;
}

/** The outcome of one `cobv` of a batch (`LoteCobVConsultado.cobsv[]`). */
export interface BatchItemRecord {
  txid: string;
  status: "EM_PROCESSAMENTO" | "CRIADA" | "NEGADA";
  /** Why it was refused (`NEGADA`): the problem a `PUT /cobv/{txid}` of it would have answered. */
  problem?: { type: string; title: string; status: number; detail?: string };
  createdAt: Date;
}

/** A batch of due-date charges (`lotecobv`). */
export interface BatchRecord {
  /** The standard's int64 id, as the path wrote it. */
  id: string;
  descricao: string;
  createdAt: Date;
  items: BatchItemRecord[];
}
