/**
 * The emulated account's books: charges, received payments and their devoluções, payouts and the webhook, with the
 * standard's rules for each change. Nothing here talks HTTP or waits: bank.ts schedules settlements and callbacks.
 */
import { generatePixPayload } from "@brazilian-utils/brazilian-utils";
import {
  amountDue,
  fromCobvTerms,
  isPayableOn,
  saoPauloDate,
  validateDueDateTerms,
  type DueDateTerms,
} from "@lm/domain/src/due-dates";
import type { CobvTerms } from "@lm/pix-api";
import { EMULATOR_ISPB, PAYER_BANK_ISPB, newEndToEndId, newLocation, newReturnId } from "./ids";
import { centavosFromValor } from "./money";
import { PROBLEM_TYPES, ProblemError, notFound } from "./problems";
import type {
  BatchItemRecord,
  BatchRecord,
  ChargeRecord,
  Payer,
  PaymentRecord,
  PayoutRecord,
  RefundRecord,
  WebhookRecord,
} from "./records";

/** The standard's default charge lifetime (`CobExpiracao.expiracao`), seconds. */
const DEFAULT_EXPIRES_IN = 86_400;
/** Merchant name and city written in the BR Codes (field 59 and 60 are mandatory). */
const MERCHANT_NAME = "BANK EMULATOR";
const MERCHANT_CITY = "SAO PAULO";
/**
 * The reason given for a devolução, payout, due-date charge or cycle charge the emulator refuses (amounts whose last
 * two digits are 13).
 */
export const REFUSED_REASON = "refused by the emulator: amounts ending in 13 always fail";

/**
 * Whether the emulator refuses a devolução, payout, due-date charge or cycle charge of `amount` centavos (last two
 * digits 13).
 */
export function failsOnSettlement(amount: number): boolean {
  return amount % 100 === 13;
}

function cobProblem(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.cobInvalid, 400, "Invalid charge operation", detail);
}

function refundProblem(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.refundInvalid, 400, "Invalid devolução", detail);
}

function payoutProblem(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.payoutInvalid, 400, "Invalid Pix send", detail);
}

/**
 * A `cobv` body's terms as the payer's bank reads them (`fromCobvTerms`), checked as the standard's rules say.
 * @throws ProblemError 400 when the standard refuses them (a due date before today in São Paulo, a tier after it...)
 */
function dueDateTermsOf(body: Record<string, unknown>, now: Date): DueDateTerms {
  try {
    const terms = fromCobvTerms(body as unknown as CobvTerms);
    validateDueDateTerms(terms, { today: saoPauloDate(now) });
    return terms;
  } catch (err) {
    throw cobProblem(`the due-date terms are refused: ${(err as Error).message}`);
  }
}

/** Centavos still returnable on `payment`: its amount less every devolução not refused. */
function refundable(payment: PaymentRecord): number {
  const returned = payment.refunds.filter((refund) => refund.status !== "NAO_REALIZADO");
  return payment.amount - returned.reduce((sum, refund) => sum + refund.amount, 0);
}

/** The in-memory state of one emulated account, identified by its Pix key. */
export class BankState {
  private readonly charges = new Map<string, ChargeRecord>();
  private readonly payments = new Map<string, PaymentRecord>();
  private readonly payouts = new Map<string, PayoutRecord>();
  private readonly batches = new Map<string, BatchRecord>();
  private webhook: WebhookRecord | null = null;
  private lastLocId = 0;

  constructor(readonly pixKey: string) {}

  /**
   * `PUT /cob/{txid}` or `PUT /cobv/{txid}` (`kind`) on a body that passed the schema.
   * @throws ProblemError 400 for a txid already used, a key of another account, a location reference (the
   *   emulator serves no `/loc`), a zero amount, a non-positive lifetime, due-date terms the standard refuses (a
   *   due date before today in São Paulo, a discount after the due date...), or a `cobv` whose amount ends in 13
   *   centavos (the emulator's refusal on demand)
   */
  createCharge(kind: "cob" | "cobv", txid: string, body: Record<string, unknown>, now: Date): ChargeRecord {
    if (this.charges.has(txid)) {
      throw new ProblemError(
        PROBLEM_TYPES.cobTxidDuplicate,
        400,
        "Duplicate txid",
        `txid ${txid} is already used by another charge`,
      );
    }
    const valor = body.valor as Record<string, unknown>;
    const calendario = (body.calendario ?? {}) as { expiracao?: number };
    const amount = centavosFromValor(valor.original as string);
    if (body.chave !== this.pixKey) throw cobProblem("chave is not a key of this account");
    if (body.loc !== undefined) throw cobProblem("the emulator serves no /loc: leave loc out");
    if (amount === 0) throw cobProblem("valor.original must be greater than zero");
    const expiresIn = calendario.expiracao ?? DEFAULT_EXPIRES_IN;
    if (expiresIn <= 0) throw cobProblem("calendario.expiracao must be positive");
    const dueDate = kind === "cobv" ? dueDateTermsOf(body, now) : undefined;
    if (dueDate !== undefined && failsOnSettlement(amount)) throw cobProblem(REFUSED_REASON);
    const location = newLocation();
    const pixCopiaECola = generatePixPayload({
      url: location,
      merchantName: MERCHANT_NAME,
      merchantCity: MERCHANT_CITY,
    });
    if (pixCopiaECola === null) throw new Error(`cannot build a BR Code for location ${location}`);
    const charge: ChargeRecord = {
      txid,
      kind,
      createdAt: now,
      expiresIn,
      ...(dueDate === undefined ? {} : { dueDate }),
      revisao: 0,
      status: "ATIVA",
      valor,
      amount,
      devedor: body.devedor as Record<string, unknown> | undefined,
      chave: this.pixKey,
      solicitacaoPagador: body.solicitacaoPagador as string | undefined,
      infoAdicionais: body.infoAdicionais as unknown[] | undefined,
      locId: ++this.lastLocId,
      location,
      pixCopiaECola,
      payments: [],
    };
    this.charges.set(txid, charge);
    return charge;
  }

  /**
   * `PUT /lotecobv/{id}`: creates each `cobv` as `PUT /cobv/{txid}` would, at once; one the standard refuses is
   * `NEGADA` with its problem and never stops the others.
   * @throws ProblemError 400 when batch `id` exists already (a batch is revised with `PATCH`, which the emulator does
   *   not serve)
   */
  createBatch(id: string, body: { descricao: string; cobsv: Record<string, unknown>[] }, now: Date): BatchRecord {
    if (this.batches.has(id)) {
      throw new ProblemError(PROBLEM_TYPES.batchInvalid, 400, "Invalid batch operation", `batch ${id} exists`);
    }
    const items = body.cobsv.map((cobv): BatchItemRecord => {
      const { txid, ...request } = cobv as { txid: string } & Record<string, unknown>;
      try {
        this.createCharge("cobv", txid, request, now);
        return { txid, status: "CRIADA", createdAt: now };
      } catch (err) {
        if (!(err instanceof ProblemError)) throw err;
        return { txid, status: "NEGADA", problem: err.problem, createdAt: now };
      }
    });
    const batch: BatchRecord = { id, descricao: body.descricao, createdAt: now, items };
    this.batches.set(id, batch);
    return batch;
  }

  /**
   * The batch `id`.
   * @throws ProblemError 404 when unknown
   */
  batch(id: string): BatchRecord {
    const batch = this.batches.get(id);
    if (!batch) throw notFound(`no batch with id ${id}`);
    return batch;
  }

  /** The charge `txid` of either kind, or undefined. */
  findCharge(txid: string): ChargeRecord | undefined {
    return this.charges.get(txid);
  }

  /**
   * The charge `txid` of `kind` (a `cob` is not found at `/cobv`, nor a `cobv` at `/cob`).
   * @throws ProblemError 404 when unknown
   */
  charge(txid: string, kind: "cob" | "cobv" = "cob"): ChargeRecord {
    const charge = this.charges.get(txid);
    if (!charge || charge.kind !== kind) throw notFound(`no ${kind} with txid ${txid}`);
    return charge;
  }

  /** The payments received for `charge`, oldest first. */
  paymentsOf(charge: ChargeRecord): PaymentRecord[] {
    return charge.payments.map((endToEndId) => this.payments.get(endToEndId) as PaymentRecord);
  }

  /**
   * `PATCH /cob/{txid}`: the emulator revises only `status` (the payee's removal); removing an already removed
   * charge answers it as it is.
   * @throws ProblemError 404 when unknown; 400 on a paid charge, or for a revision of anything but `status`
   */
  reviseCharge(txid: string, kind: "cob" | "cobv", body: Record<string, unknown>): ChargeRecord {
    const charge = this.charge(txid, kind);
    if (body.status === undefined || Object.keys(body).length > 1) {
      throw cobProblem("the emulator revises only status (REMOVIDA_PELO_USUARIO_RECEBEDOR)");
    }
    if (charge.status === "CONCLUIDA") throw cobProblem("a paid charge cannot be removed");
    if (charge.status === "ATIVA") {
      charge.status = "REMOVIDA_PELO_USUARIO_RECEBEDOR";
      charge.revisao += 1;
    }
    return charge;
  }

  /**
   * Whether `charge` can no longer be paid at `now` though it still reads ATIVA: a `cob` past `calendario.expiracao`,
   * a `cobv` past its last payable day in São Paulo.
   */
  isExpired(charge: ChargeRecord, now: Date): boolean {
    if (charge.dueDate !== undefined) return !isPayableOn(charge.dueDate, saoPauloDate(now));
    return now.getTime() >= charge.createdAt.getTime() + charge.expiresIn * 1000;
  }

  /**
   * Records a Pix received for charge `txid`, as the payer's bank would settle it; the charge becomes CONCLUIDA. A
   * `cobv` is paid what its terms come to on the day of payment in São Paulo (`amountDue`), its parts kept for
   * `componentesValor`; a given `amount` stands for a payer's bank that computed otherwise (the difference is put in
   * the interest). `force` pays a charge that is not payable (removed, paid, expired) or unknown (then `amount` is
   * required).
   * @param now - when the payment is made (a day after today pays a due-date charge late)
   * @throws Error when the charge is unknown, not ATIVA or expired and `force` is not set, or no amount is known
   */
  receivePayment(txid: string, options: { amount?: number; payer?: Payer; force?: boolean }, now: Date): PaymentRecord {
    const charge = this.charges.get(txid);
    if (!options.force) {
      if (!charge) throw new Error(`no charge with txid ${txid}`);
      if (charge.status !== "ATIVA") throw new Error(`charge ${txid} is ${charge.status}, not ATIVA`);
      if (this.isExpired(charge, now)) throw new Error(`charge ${txid} is expired`);
    }
    const due = charge?.dueDate === undefined ? undefined : amountDue(charge.dueDate, saoPauloDate(now));
    const amount = options.amount ?? due?.total ?? charge?.amount;
    if (amount === undefined) throw new Error(`charge ${txid} is unknown: give the amount`);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer of centavos");
    const payment: PaymentRecord = {
      endToEndId: newEndToEndId(PAYER_BANK_ISPB, now),
      txid,
      amount,
      ...(due === undefined ? {} : { parts: { ...due, interest: due.interest + amount - due.total } }),
      chave: this.pixKey,
      receivedAt: now,
      payer: options.payer,
      refunds: [],
    };
    this.payments.set(payment.endToEndId, payment);
    if (charge) {
      charge.payments.push(payment.endToEndId);
      charge.status = "CONCLUIDA";
    }
    return payment;
  }

  /**
   * The received Pix `endToEndId`.
   * @throws ProblemError 404 when unknown
   */
  payment(endToEndId: string): PaymentRecord {
    const payment = this.payments.get(endToEndId);
    if (!payment) throw notFound(`no Pix received with endToEndId ${endToEndId}`);
    return payment;
  }

  /** `GET /pix`: the received payments with `horario` in [`inicio`, `fim`] that pass the filters, oldest first. */
  listPayments(filter: {
    inicio: Date;
    fim: Date;
    txid?: string;
    txIdPresente?: boolean;
    devolucaoPresente?: boolean;
    cpf?: string;
    cnpj?: string;
  }): PaymentRecord[] {
    return [...this.payments.values()].filter(
      (payment) =>
        payment.receivedAt >= filter.inicio &&
        payment.receivedAt <= filter.fim &&
        (filter.txid === undefined || payment.txid === filter.txid) &&
        // Every Pix the emulator receives carries a txid.
        (filter.txIdPresente === undefined || filter.txIdPresente) &&
        (filter.devolucaoPresente === undefined || filter.devolucaoPresente === payment.refunds.length > 0) &&
        (filter.cpf === undefined || payment.payer?.cpf === filter.cpf) &&
        (filter.cnpj === undefined || payment.payer?.cnpj === filter.cnpj),
    );
  }

  /**
   * `PUT /pix/{e2eid}/devolucao/{id}`: a new devolução EM_PROCESSAMENTO, or the existing one with that id
   * (`created: false`) when its amount is the same.
   * @throws ProblemError 404 for an unknown Pix; 400 for an id reused with another amount, a zero amount, or
   *   devoluções that would exceed the payment
   */
  requestRefund(
    endToEndId: string,
    id: string,
    body: { valor: string; natureza?: string; descricao?: string },
    now: Date,
  ): { refund: RefundRecord; created: boolean } {
    const payment = this.payment(endToEndId);
    const amount = centavosFromValor(body.valor);
    const existing = payment.refunds.find((refund) => refund.id === id);
    if (existing) {
      if (existing.amount !== amount) throw refundProblem(`devolução ${id} already exists with another valor`);
      return { refund: existing, created: false };
    }
    if (amount === 0) throw refundProblem("valor must be greater than zero");
    if (amount > refundable(payment)) throw refundProblem("the devoluções would exceed the payment's valor");
    const refund: RefundRecord = {
      id,
      rtrId: newReturnId(now),
      amount,
      natureza: body.natureza ?? "ORIGINAL",
      descricao: body.descricao,
      requestedAt: now,
      status: "EM_PROCESSAMENTO",
    };
    payment.refunds.push(refund);
    return { refund, created: true };
  }

  /**
   * The devolução `id` of Pix `endToEndId`.
   * @throws ProblemError 404 when either is unknown
   */
  refund(endToEndId: string, id: string): RefundRecord {
    const refund = this.payment(endToEndId).refunds.find((candidate) => candidate.id === id);
    if (!refund) throw notFound(`no devolução ${id} on Pix ${endToEndId}`);
    return refund;
  }

  /** Settles a devolução EM_PROCESSAMENTO: DEVOLVIDO, or NAO_REALIZADO with a `motivo` for amounts ending in 13. */
  settleRefund(refund: RefundRecord, now: Date): void {
    if (refund.status !== "EM_PROCESSAMENTO") return;
    refund.settledAt = now;
    if (failsOnSettlement(refund.amount)) {
      refund.status = "NAO_REALIZADO";
      refund.motivo = REFUSED_REASON;
    } else {
      refund.status = "DEVOLVIDO";
    }
  }

  /**
   * An unrequested devolução (MED) of `amount` centavos on Pix `endToEndId`, already DEVOLVIDO.
   * @throws ProblemError 404 for an unknown Pix; Error when the amount is not positive or exceeds what is left
   */
  addMed(endToEndId: string, id: string, amount: number, now: Date): RefundRecord {
    const payment = this.payment(endToEndId);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error("amount must be a positive integer of centavos");
    if (amount > refundable(payment)) throw new Error(`MED of ${amount} exceeds what is left of ${endToEndId}`);
    const refund: RefundRecord = {
      id,
      rtrId: newReturnId(now),
      amount,
      natureza: "ORIGINAL",
      requestedAt: now,
      settledAt: now,
      status: "DEVOLVIDO",
    };
    payment.refunds.push(refund);
    return refund;
  }

  /**
   * `PUT /webhook/{chave}`.
   * @throws ProblemError 400 when `chave` is not the account's key
   */
  setWebhook(chave: string, url: string, now: Date): void {
    if (chave !== this.pixKey) {
      throw new ProblemError(
        PROBLEM_TYPES.webhookInvalid,
        400,
        "Invalid webhook",
        "chave is not a key of this account",
      );
    }
    this.webhook = { url, createdAt: this.webhook?.url === url ? this.webhook.createdAt : now };
  }

  /**
   * The webhook of `chave`.
   * @throws ProblemError 404 when none is registered for it
   */
  webhookOf(chave: string): WebhookRecord {
    if (chave !== this.pixKey || !this.webhook) throw notFound(`no webhook for key ${chave}`);
    return this.webhook;
  }

  /**
   * `DELETE /webhook/{chave}`.
   * @throws ProblemError 404 when none is registered for it
   */
  deleteWebhook(chave: string): void {
    this.webhookOf(chave);
    this.webhook = null;
  }

  /** The registered webhook URL, or null. */
  webhookUrl(): string | null {
    return this.webhook?.url ?? null;
  }

  /**
   * Efí's `PUT /v3/gn/pix/{idEnvio}`: a new payout EM_PROCESSAMENTO, or the existing one (`created: false`) when
   * the amount and payee are the same.
   * @throws ProblemError 400 when the paying key is not the account's, the amount is zero, or `idEnvio` was used
   *   for another payout
   */
  requestPayout(
    idEnvio: string,
    body: { valor: string; pagador: { chave: string; infoPagador?: string }; favorecido: { chave: string } },
    now: Date,
  ): { payout: PayoutRecord; created: boolean } {
    const amount = centavosFromValor(body.valor);
    const existing = this.payouts.get(idEnvio);
    if (existing) {
      if (existing.amount !== amount || existing.payeeKey !== body.favorecido.chave) {
        throw payoutProblem(`idEnvio ${idEnvio} was already used for another Pix send`);
      }
      return { payout: existing, created: false };
    }
    if (body.pagador.chave !== this.pixKey) throw payoutProblem("pagador.chave is not a key of this account");
    if (amount === 0) throw payoutProblem("valor must be greater than zero");
    const payout: PayoutRecord = {
      idEnvio,
      e2eId: newEndToEndId(EMULATOR_ISPB, now),
      amount,
      payerKey: body.pagador.chave,
      infoPagador: body.pagador.infoPagador,
      payeeKey: body.favorecido.chave,
      requestedAt: now,
      status: "EM_PROCESSAMENTO",
    };
    this.payouts.set(idEnvio, payout);
    return { payout, created: true };
  }

  /**
   * The payout `idEnvio`.
   * @throws ProblemError 404 when unknown
   */
  payout(idEnvio: string): PayoutRecord {
    const payout = this.payouts.get(idEnvio);
    if (!payout) throw notFound(`no Pix sent with idEnvio ${idEnvio}`);
    return payout;
  }

  /** Settles a payout EM_PROCESSAMENTO: REALIZADO, or NAO_REALIZADO with a `motivo` for amounts ending in 13. */
  settlePayout(payout: PayoutRecord, now: Date): void {
    if (payout.status !== "EM_PROCESSAMENTO") return;
    payout.settledAt = now;
    if (failsOnSettlement(payout.amount)) {
      payout.status = "NAO_REALIZADO";
      payout.motivo = REFUSED_REASON;
    } else {
      payout.status = "REALIZADO";
    }
  }
}
