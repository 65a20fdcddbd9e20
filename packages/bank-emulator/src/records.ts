/**
 * What the emulated bank keeps in memory, in its own terms (amounts in centavos, times as Dates). wire.ts writes
 * these as the standard's JSON.
 */

/** The payer of a received Pix, as the payer's bank reports it. */
export interface Payer {
  name: string;
  cpf?: string;
  cnpj?: string;
}

/** The standard's `CobrancaStatus`. */
export type ChargeStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP";

/** An immediate charge (cob). */
export interface ChargeRecord {
  txid: string;
  createdAt: Date;
  /** Lifetime from `createdAt`, seconds (`calendario.expiracao`). */
  expiresIn: number;
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

/** A received Pix. */
export interface PaymentRecord {
  endToEndId: string;
  txid: string;
  amount: number;
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
