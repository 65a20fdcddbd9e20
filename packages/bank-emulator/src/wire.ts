/**
 * The standard's JSON for each record (release 2.x: `CobCompleta`, `CobVCompleta`, `LoteCobVConsultado`, `Pix`,
 * `Devolucao`, `WebhookCompleto`) and Efí's
 * payout object. The only place that knows the wire format of replies and callbacks.
 */
import { valorFromCentavos } from "./money";
import type {
  BatchRecord,
  ChargeRecord,
  PaymentParts,
  PaymentRecord,
  PayoutRecord,
  RefundRecord,
  WebhookRecord,
} from "./records";

type Json = Record<string, unknown>;

/** Copies the defined entries only, so optional fields are left out rather than written as `undefined`. */
function defined(entries: Json): Json {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

/** The standard's `Devolucao`. */
export function refundJson(refund: RefundRecord): Json {
  return defined({
    id: refund.id,
    rtrId: refund.rtrId,
    valor: valorFromCentavos(refund.amount),
    natureza: refund.natureza,
    descricao: refund.descricao,
    horario: defined({ solicitacao: refund.requestedAt.toISOString(), liquidacao: refund.settledAt?.toISOString() }),
    status: refund.status,
    motivo: refund.motivo,
  });
}

/**
 * The standard's `Pix`, with `pagador` (`{nome, cpf|cnpj}`) when the payer is known: the standard dropped it, but
 * acquirers still send it.
 */
export function paymentJson(payment: PaymentRecord): Json {
  return defined({
    endToEndId: payment.endToEndId,
    txid: payment.txid,
    valor: valorFromCentavos(payment.amount),
    chave: payment.chave,
    horario: payment.receivedAt.toISOString(),
    componentesValor: payment.parts === undefined ? undefined : componentesValor(payment.parts),
    pagador: payment.payer
      ? defined({ nome: payment.payer.name, cpf: payment.payer.cpf, cnpj: payment.payer.cnpj })
      : undefined,
    devolucoes: payment.refunds.length > 0 ? payment.refunds.map(refundJson) : undefined,
  });
}

/**
 * The standard's `Pix.componentesValor` of a due-date charge's payment: `original` always, each other part only when
 * it is not zero.
 */
function componentesValor(parts: PaymentParts): Json {
  const part = (centavos: number) => (centavos === 0 ? undefined : { valor: valorFromCentavos(centavos) });
  return defined({
    original: { valor: valorFromCentavos(parts.original) },
    multa: part(parts.fine),
    juros: part(parts.interest),
    abatimento: part(parts.reduction),
    desconto: part(parts.discount),
  });
}

/** The standard's `LoteCobVConsultado`: the batch and each `cobv`'s outcome. */
export function batchJson(batch: BatchRecord): Json {
  return {
    id: Number(batch.id),
    descricao: batch.descricao,
    criacao: batch.createdAt.toISOString(),
    cobsv: batch.items.map((item) =>
      defined({ txid: item.txid, status: item.status, problema: item.problem, criacao: item.createdAt.toISOString() }),
    ),
  };
}

/** The receiving account's holder (`DadosRecebedor`), which a `cobv` names. */
const RECEBEDOR = {
  nome: "BANK EMULATOR LTDA",
  cnpj: "11222333000181",
  logradouro: "Avenida Paulista, 1000",
  cidade: "Sao Paulo",
  uf: "SP",
  cep: "01310100",
};

/**
 * The standard's `CobCompleta` or `CobVCompleta` (`CobGerada`/`CobVGerada` plus the payments received, once there are
 * any): a `cobv`'s calendar is its due date and payable days, and it names the receiving account (`recebedor`).
 */
export function chargeJson(charge: ChargeRecord, payments: PaymentRecord[]): Json {
  const criacao = charge.createdAt.toISOString();
  const due = charge.dueDate;
  return defined({
    calendario:
      due === undefined
        ? { criacao, expiracao: charge.expiresIn }
        : { criacao, dataDeVencimento: due.due_date, validadeAposVencimento: due.days_after_due },
    txid: charge.txid,
    revisao: charge.revisao,
    loc: { id: charge.locId, location: charge.location, tipoCob: charge.kind, criacao },
    location: charge.location,
    status: charge.status,
    devedor: charge.devedor,
    recebedor: due === undefined ? undefined : RECEBEDOR,
    valor: charge.valor,
    chave: charge.chave,
    solicitacaoPagador: charge.solicitacaoPagador,
    infoAdicionais: charge.infoAdicionais,
    pixCopiaECola: charge.pixCopiaECola,
    pix: payments.length > 0 ? payments.map(paymentJson) : undefined,
  });
}

/** The standard's `WebhookCompleto` as the brief and acquirers write it (`chave` where the document has `cnpj`). */
export function webhookJson(webhook: WebhookRecord, chave: string): Json {
  return { webhookUrl: webhook.url, chave, criacao: webhook.createdAt.toISOString() };
}

/**
 * Efí's sent Pix: `e2eId` as its send reply names it and `endToEndId` as its read-back does, `chave` the payee's
 * key, `horario.liquidacao` once settled, `motivo` when it failed.
 */
export function payoutJson(payout: PayoutRecord): Json {
  return defined({
    idEnvio: payout.idEnvio,
    e2eId: payout.e2eId,
    endToEndId: payout.e2eId,
    valor: valorFromCentavos(payout.amount),
    chave: payout.payeeKey,
    infoPagador: payout.infoPagador,
    horario: defined({ solicitacao: payout.requestedAt.toISOString(), liquidacao: payout.settledAt?.toISOString() }),
    status: payout.status,
    motivo: payout.motivo,
  });
}

/**
 * One item of the callback Efí posts when a payout settles: the sent Pix with `horario` the settlement time,
 * `idEnvio` both at the top and under Efí's `gnExtras`, and `tipo` `SOLICITACAO` (a send, not a receipt).
 */
export function payoutCallbackItem(payout: PayoutRecord): Json {
  return defined({
    endToEndId: payout.e2eId,
    idEnvio: payout.idEnvio,
    valor: valorFromCentavos(payout.amount),
    chave: payout.payeeKey,
    horario: (payout.settledAt ?? payout.requestedAt).toISOString(),
    status: payout.status,
    motivo: payout.motivo,
    tipo: "SOLICITACAO",
    gnExtras: { idEnvio: payout.idEnvio },
  });
}
