/**
 * The emulated account's Pix Automático (API Pix 2.9 `rec`, `locrec`, `solicrec`, `cobr`, `webhookrec`,
 * `webhookcobr`), kept as the standard's JSON, and the payer's bank played on request: approve or reject a
 * recurrence, cancel it as the payer, pay a cycle charge or fail one of its debit attempts. Every change the payer's
 * side makes is posted to the registered `webhookrec` URL + `/rec` (`{recs: [...]}`) or `webhookcobr` URL + `/cobr`
 * (`{cobsr: [...]}`), as the bank does for payments.
 *
 * The emulator's own rules where the standard leaves them to the banks: a cycle charge is accepted for an approved
 * recurrence on any due date not in the past (a bank would hold the merchant to sending it 2 to 10 days before), and is
 * `ATIVA` at once with its first attempt scheduled (`AGND`, `AGENDADA`) for its due date; a failed attempt ends the
 * charge `REJEITADA` under `NAO_PERMITE`, and leaves it `ATIVA` for retries (`retentativa`, at most 3, within 7 days
 * after the due date) under `PERMITE_3R_7D`.
 */
import { buildPixBrCode, withRecurrenceAuthorization } from "@lm/domain/src/br-code";
import { noonInSaoPaulo, saoPauloDate } from "@lm/domain/src/due-dates";
import { addDays } from "@lm/domain/src/recurrences/cycle-dates";
import type { CobR, CobRTentativa, LocRec, Rec, RecStatus, SolicRec } from "@lm/pix-api";
import { ulid } from "ulid";
import type { CallbackChoice } from "./bank";
import type { CallbackPoster } from "./callbacks";
import { EMULATOR_ISPB, PAYER_BANK_ISPB, newEndToEndId } from "./ids";
import { centavosFromValor } from "./money";
import { PROBLEM_TYPES, ProblemError, notFound } from "./problems";
import { REFUSED_REASON, failsOnSettlement, type BankState } from "./state";
import { paymentJson } from "./wire";

type Json = Record<string, unknown>;

/** The receiver every recurrence names (`recebedor`): the emulated account's holder. */
const RECEIVER = { cnpj: "00000000000191", nome: "BANK EMULATOR" };
/** Retries a `PERMITE_3R_7D` cycle may have, and the days after its due date they may fall on. */
const MAX_RETRIES = 3;
const RETRY_DAYS = 7;

function recProblem(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.recInvalid, 400, "Invalid recurrence operation", detail);
}

function cobrProblem(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.cobrInvalid, 400, "Invalid recurring charge operation", detail);
}

/** 11 letters and digits: the sequential part of the standard's 29-character ids. */
function sequence(): string {
  return ulid().slice(-11);
}

/** `yyyyMMdd` of `at` in São Paulo. */
function dayStamp(at: Date): string {
  return saoPauloDate(at).replace(/-/g, "");
}

/** The recurrences, locations, push requests and cycle charges of one emulated account. */
export class RecurrenceBook {
  private readonly recs = new Map<string, Rec & { criacao: Date }>();
  private readonly locations = new Map<number, LocRec>();
  private readonly requests = new Map<string, SolicRec>();
  private readonly cycles = new Map<string, CobR>();
  private webhooks: { rec: string | null; cobr: string | null } = { rec: null, cobr: null };
  private lastLocationId = 0;

  /**
   * @param payCharge - pays an immediate charge as the payer's bank does, posting its `/pix` callback (journey 3's
   *   first payment, made with the approval)
   */
  constructor(
    private readonly state: BankState,
    private readonly callbacks: CallbackPoster,
    private readonly payCharge: (txid: string) => Promise<unknown>,
  ) {}

  /** `POST /locrec`: a new location, not linked to a recurrence yet. */
  createLocation(now: Date): LocRec {
    const id = ++this.lastLocationId;
    const location: LocRec = {
      id,
      location: `pix.emulator.localhost/qr/v2/rec/${ulid().toLowerCase()}`,
      criacao: now.toISOString(),
    };
    this.locations.set(id, location);
    return location;
  }

  /**
   * `GET /locrec/{id}`.
   * @throws ProblemError 404 when unknown
   */
  location(id: number): LocRec {
    const location = this.locations.get(id);
    if (location === undefined) throw notFound(`no location ${id}`);
    return location;
  }

  /**
   * `POST /rec` on a body that passed the schema: `CRIADA`, linked to its location.
   * @throws ProblemError 400 for an unknown location or one linked already, both or neither amount, an end before
   *   the start, or a journey 3 charge (`ativacao.dadosJornada.txid`) the account does not hold as a `cob`
   */
  createRecurrence(body: Json, now: Date): Rec {
    const valor = (body.valor ?? {}) as { valorRec?: string; valorMinimoRecebedor?: string };
    if ((valor.valorRec === undefined) === (valor.valorMinimoRecebedor === undefined)) {
      throw recProblem("give valor.valorRec or valor.valorMinimoRecebedor, exactly one");
    }
    const calendario = body.calendario as Rec["calendario"];
    if (calendario.dataFinal !== undefined && calendario.dataFinal < calendario.dataInicial) {
      throw recProblem("calendario.dataFinal is before calendario.dataInicial");
    }
    const locId = body.loc as number | undefined;
    const location = locId === undefined ? undefined : this.locations.get(locId);
    if (locId !== undefined && location === undefined) throw recProblem(`no location ${locId}`);
    if (location?.idRec !== undefined) throw recProblem(`location ${locId} is linked to ${location.idRec}`);
    const ativacao = body.ativacao as { dadosJornada?: { txid: string } } | undefined;
    const firstTxid = ativacao?.dadosJornada?.txid;
    if (firstTxid !== undefined && this.state.findCharge(firstTxid)?.kind !== "cob") {
      throw recProblem(`ativacao.dadosJornada.txid ${firstTxid} is not a cob of this account`);
    }
    const politica = body.politicaRetentativa as Rec["politicaRetentativa"];
    const idRec = `R${politica === "PERMITE_3R_7D" ? "R" : "N"}${EMULATOR_ISPB}${dayStamp(now)}${sequence()}`;
    if (location !== undefined) location.idRec = idRec;
    const rec: Rec & { criacao: Date } = {
      idRec,
      vinculo: body.vinculo as Rec["vinculo"],
      calendario,
      valor,
      ...(politica === undefined ? {} : { politicaRetentativa: politica }),
      recebedor: RECEIVER,
      status: "CRIADA",
      ...(location === undefined ? {} : { loc: location }),
      atualizacao: [{ status: "CRIADA", data: now.toISOString() }],
      ativacao: {
        tipoJornada: "AGUARDANDO_DEFINICAO",
        ...(firstTxid === undefined ? {} : { dadosJornada: { txid: firstTxid } }),
      },
      criacao: now,
    };
    this.recs.set(idRec, rec);
    return rec;
  }

  /**
   * The recurrence `idRec` as `GET /rec/{idRec}[?txid=]` answers it: with `dadosQR`, the composite BR Code of
   * journey 2 (the recurrence's location alone) or, given the `cob` of journey 3, that charge's code with the
   * authorization.
   * @throws ProblemError 404 when unknown; 400 for a txid that is not a cob of the account
   */
  recurrence(idRec: string, txid?: string): Rec {
    const { criacao: _criacao, ...rec } = this.found(idRec);
    if (rec.loc === undefined) return rec;
    if (txid === undefined) {
      const brCode = buildPixBrCode({ location: rec.loc.location, merchantName: RECEIVER.nome });
      return {
        ...rec,
        dadosQR: { jornada: "JORNADA_2", pixCopiaECola: withRecurrenceAuthorization(brCode, rec.loc.location) },
      };
    }
    const charge = this.state.findCharge(txid);
    if (charge?.kind !== "cob") throw recProblem(`txid ${txid} is not a cob of this account`);
    const pixCopiaECola = withRecurrenceAuthorization(charge.pixCopiaECola, rec.loc.location);
    return { ...rec, dadosQR: { jornada: "JORNADA_3", pixCopiaECola } };
  }

  /** `GET /rec`: the recurrences created in [`inicio`, `fim`] for the debtor's CPF or CNPJ, oldest first. */
  listRecurrences(filter: { inicio: Date; fim: Date; cpf?: string; cnpj?: string }): Rec[] {
    return [...this.recs.values()]
      .filter(
        (rec) =>
          rec.criacao >= filter.inicio &&
          rec.criacao <= filter.fim &&
          (filter.cpf === undefined || rec.vinculo.devedor.cpf === filter.cpf) &&
          (filter.cnpj === undefined || rec.vinculo.devedor.cnpj === filter.cnpj),
      )
      .map(({ criacao: _criacao, ...rec }) => rec);
  }

  /**
   * `PATCH /rec/{idRec}`: the emulator revises only `status` (the receiver's cancel), of a `CRIADA` or `APROVADA`
   * recurrence; its cycle charges not paid are canceled with it. Canceling a canceled one answers it as it is.
   * @throws ProblemError 404 when unknown; 400 for another revision or a recurrence rejected or expired
   */
  revise(idRec: string, body: Json, now: Date): Rec {
    const rec = this.found(idRec);
    if (body.status !== "CANCELADA" || Object.keys(body).length > 1) {
      throw recProblem("the emulator revises only status (CANCELADA)");
    }
    if (rec.status !== "CANCELADA") {
      if (rec.status !== "CRIADA" && rec.status !== "APROVADA") throw recProblem(`the recurrence is ${rec.status}`);
      this.end(rec, "USUARIO_RECEBEDOR", now);
    }
    return this.recurrence(idRec);
  }

  /**
   * `POST /solicrec`: a push request for a `CRIADA` recurrence without a location, sent to the payer's bank at once
   * (`ENVIADA`).
   * @throws ProblemError 400 for an unknown recurrence, one that is not `CRIADA` or has a QR location
   */
  requestConfirmation(body: Json, now: Date): SolicRec {
    const rec = this.recs.get(body.idRec as string);
    if (rec === undefined) throw recProblem(`no recurrence ${String(body.idRec)}`);
    if (rec.status !== "CRIADA") throw recProblem(`the recurrence is ${rec.status}`);
    if (rec.loc !== undefined) throw recProblem("the recurrence is authorized by its QR code (it has a location)");
    const at = now.toISOString();
    const request: SolicRec = {
      idSolicRec: `SC${EMULATOR_ISPB}${dayStamp(now)}${sequence()}`,
      idRec: rec.idRec,
      calendario: body.calendario as SolicRec["calendario"],
      destinatario: body.destinatario as SolicRec["destinatario"],
      status: "ENVIADA",
      atualizacao: [
        { status: "CRIADA", data: at },
        { status: "ENVIADA", data: at },
      ],
    };
    this.requests.set(request.idSolicRec, request);
    rec.solicitacao = [...(rec.solicitacao ?? []), request];
    return request;
  }

  /**
   * `GET /solicrec/{id}`.
   * @throws ProblemError 404 when unknown
   */
  confirmationRequest(idSolicRec: string): SolicRec {
    const request = this.requests.get(idSolicRec);
    if (request === undefined) throw notFound(`no request ${idSolicRec}`);
    return request;
  }

  /**
   * `PUT /cobr/{txid}`: a cycle charge of an approved recurrence, `ATIVA` with its first attempt scheduled.
   * @throws ProblemError 400 for a txid used already, an unknown or unapproved recurrence, a zero amount, an amount
   *   ending in 13 (the emulator's refusal, as for a due-date charge) or a due date in the past (São Paulo)
   */
  createCycle(txid: string, body: Json, now: Date): CobR {
    if (this.cycles.has(txid) || this.state.findCharge(txid) !== undefined) {
      throw cobrProblem(`txid ${txid} is already used by another charge`);
    }
    const rec = this.recs.get(body.idRec as string);
    if (rec === undefined) throw cobrProblem(`no recurrence ${String(body.idRec)}`);
    if (rec.status !== "APROVADA") throw cobrProblem(`the recurrence is ${rec.status}, not APROVADA`);
    const valor = body.valor as { original: string };
    if (centavosFromValor(valor.original) === 0) throw cobrProblem("valor.original must be greater than zero");
    if (failsOnSettlement(centavosFromValor(valor.original))) throw cobrProblem(REFUSED_REASON);
    const calendario = body.calendario as { dataDeVencimento: string };
    if (calendario.dataDeVencimento < saoPauloDate(now)) throw cobrProblem("calendario.dataDeVencimento is past");
    const at = now.toISOString();
    const cycle: CobR = {
      idRec: rec.idRec,
      txid,
      ...(typeof body.infoAdicional === "string" ? { infoAdicional: body.infoAdicional } : {}),
      calendario: { criacao: saoPauloDate(now), dataDeVencimento: calendario.dataDeVencimento },
      valor,
      status: "ATIVA",
      politicaRetentativa: rec.politicaRetentativa ?? "NAO_PERMITE",
      ajusteDiaUtil: body.ajusteDiaUtil as boolean,
      recebedor: { ...(body.recebedor as Json), cnpj: RECEIVER.cnpj, nome: RECEIVER.nome },
      ...(body.devedor === undefined ? {} : { devedor: body.devedor as CobR["devedor"] }),
      atualizacao: [
        { status: "CRIADA", data: at },
        { status: "ATIVA", data: at },
      ],
      tentativas: [this.attempt(calendario.dataDeVencimento, "AGND", now)],
    };
    this.cycles.set(txid, cycle);
    return cycle;
  }

  /**
   * `GET /cobr/{txid}`.
   * @throws ProblemError 404 when unknown
   */
  cycle(txid: string): CobR {
    const cycle = this.cycles.get(txid);
    if (cycle === undefined) throw notFound(`no cobr with txid ${txid}`);
    return cycle;
  }

  /**
   * `PATCH /cobr/{txid}` to `CANCELADA` (the receiver's cancel); canceling a canceled one answers it as it is.
   * @throws ProblemError 404 when unknown; 400 for a charge paid, rejected or expired
   */
  reviseCycle(txid: string, now: Date): CobR {
    const cycle = this.cycle(txid);
    if (cycle.status === "CANCELADA") return cycle;
    if (cycle.status !== "ATIVA" && cycle.status !== "CRIADA") throw cobrProblem(`the charge is ${cycle.status}`);
    this.cancelCycle(cycle, "USUARIO_RECEBEDOR", now);
    return cycle;
  }

  /**
   * `POST /cobr/{txid}/retentativa/{data}`: a new attempt (`NTAG`, `AGENDADA`) on `date` for a charge whose last
   * attempt failed; asking again for the same date answers the charge as it is.
   * @throws ProblemError 404 when unknown; 400 when the recurrence allows no retry, the charge is not `ATIVA`, its
   *   last attempt did not fail, the date is past or more than 7 days after the due date, or 3 retries were asked
   */
  retryCycle(txid: string, date: string, now: Date): CobR {
    const cycle = this.cycle(txid);
    const attempts = cycle.tentativas ?? [];
    if (attempts.some((attempt) => attempt.dataLiquidacao === date && attempt.tipo !== "AGND")) return cycle;
    if (cycle.politicaRetentativa !== "PERMITE_3R_7D") throw cobrProblem("the recurrence allows no retry");
    if (cycle.status !== "ATIVA") throw cobrProblem(`the charge is ${cycle.status}`);
    if (attempts.at(-1)?.status !== "REJEITADA") throw cobrProblem("the charge's last attempt did not fail");
    if (date < saoPauloDate(now)) throw cobrProblem(`${date} is past`);
    if (date > addDays(cycle.calendario.dataDeVencimento, RETRY_DAYS)) {
      throw cobrProblem(`a retry falls within ${RETRY_DAYS} days after the due date`);
    }
    if (attempts.length > MAX_RETRIES) throw cobrProblem(`at most ${MAX_RETRIES} retries`);
    attempts.push(this.attempt(date, "NTAG", now));
    cycle.tentativas = attempts;
    return cycle;
  }

  /** `PUT /webhookrec` or `PUT /webhookcobr`. */
  setWebhook(kind: "rec" | "cobr", url: string): void {
    this.webhooks[kind] = url;
  }

  /**
   * `GET /webhookrec` or `/webhookcobr`.
   * @throws ProblemError 404 when none is registered
   */
  webhook(kind: "rec" | "cobr"): { webhookUrl: string } {
    const url = this.webhooks[kind];
    if (url === null) throw notFound(`no webhook${kind}`);
    return { webhookUrl: url };
  }

  /**
   * The payer's bank answers recurrence `idRec`: approved (`APROVADA`, the journey it came by, the payer's bank and
   * document; for journey 3 its charge paid first), or rejected (`REJEITADA`, code `AP13`); then, unless dropped, the
   * callback is posted. A push request is `ACEITA` or `REJEITADA` with it.
   * @throws Error for an unknown recurrence or one not `CRIADA`
   */
  async answer(idRec: string, approve: boolean, options: { callback?: CallbackChoice } = {}): Promise<Rec> {
    const rec = this.recs.get(idRec);
    if (rec === undefined) throw new Error(`no recurrence ${idRec}`);
    if (rec.status !== "CRIADA") throw new Error(`recurrence ${idRec} is ${rec.status}, not CRIADA`);
    const now = new Date();
    const request = rec.solicitacao?.at(-1);
    const firstTxid = rec.ativacao?.dadosJornada?.txid;
    if (approve) {
      if (firstTxid !== undefined && this.state.findCharge(firstTxid)?.status === "ATIVA") {
        await this.payCharge(firstTxid);
      }
      rec.ativacao = {
        tipoJornada: request !== undefined ? "JORNADA_1" : firstTxid !== undefined ? "JORNADA_3" : "JORNADA_2",
        ...(firstTxid === undefined ? {} : { dadosJornada: { txid: firstTxid } }),
      };
      rec.pagador = { ispbParticipante: PAYER_BANK_ISPB, ...documentOf(rec) };
    } else {
      rec.encerramento = { rejeicao: { codigo: "AP13", descricao: "Recusada pelo usuário pagador (emulador)" } };
    }
    this.move(rec, approve ? "APROVADA" : "REJEITADA", now);
    if (request !== undefined) {
      request.status = approve ? "ACEITA" : "REJEITADA";
      request.atualizacao = [...(request.atualizacao ?? []), { status: request.status, data: now.toISOString() }];
    }
    await this.notifyRec(rec, options.callback);
    return this.recurrence(idRec);
  }

  /**
   * The payer cancels approved recurrence `idRec` in their bank: `CANCELADA` (requester `USUARIO_PAGADOR`), its
   * cycle charges not paid canceled with it, and (unless dropped) the callbacks posted.
   * @throws Error for an unknown recurrence or one not `APROVADA`
   */
  async cancelByPayer(idRec: string, options: { callback?: CallbackChoice } = {}): Promise<Rec> {
    const rec = this.recs.get(idRec);
    if (rec === undefined) throw new Error(`no recurrence ${idRec}`);
    if (rec.status !== "APROVADA") throw new Error(`recurrence ${idRec} is ${rec.status}, not APROVADA`);
    const canceled = this.end(rec, "USUARIO_PAGADOR", new Date());
    await this.notifyRec(rec, options.callback);
    for (const cycle of canceled) await this.notifyCycle(cycle, options.callback);
    return this.recurrence(idRec);
  }

  /**
   * The payer's bank settles cycle charge `txid`'s current attempt: a Pix received (listed by `GET /pix`, dated noon
   * of the attempt's day unless that is today), the attempt `PAGA`, the charge `CONCLUIDA` with its `pix`, and
   * (unless dropped) the callback posted.
   * @throws Error for an unknown charge, one not `ATIVA`, or without an attempt scheduled
   */
  async payCycle(txid: string, options: { callback?: CallbackChoice } = {}): Promise<{ endToEndId: string }> {
    const { cycle, attempt } = this.scheduled(txid);
    const now = new Date();
    const paidAt = attempt.dataLiquidacao === saoPauloDate(now) ? now : noonInSaoPaulo(attempt.dataLiquidacao);
    const amount = centavosFromValor(cycle.valor.original);
    const payment = this.state.receivePayment(txid, { amount, force: true }, paidAt);
    this.moveAttempt(attempt, "PAGA", now);
    attempt.endToEndId = payment.endToEndId;
    cycle.pix = [paymentJson(payment) as unknown as NonNullable<CobR["pix"]>[number]];
    this.moveCycle(cycle, "CONCLUIDA", now);
    await this.notifyCycle(cycle, options.callback);
    return { endToEndId: payment.endToEndId };
  }

  /**
   * The payer's bank fails cycle charge `txid`'s current attempt (`REJEITADA`, as for a lack of funds); the charge
   * ends `REJEITADA` unless its recurrence allows retries; then (unless dropped) the callback is posted.
   * @throws Error for an unknown charge, one not `ATIVA`, or without an attempt scheduled
   */
  async failCycle(txid: string, options: { callback?: CallbackChoice } = {}): Promise<CobR> {
    const { cycle, attempt } = this.scheduled(txid);
    const now = new Date();
    this.moveAttempt(attempt, "REJEITADA", now);
    attempt.rejeicao = { codigo: "AM02", descricao: "Débito recusado pelo PSP pagador (emulador)" };
    if (cycle.politicaRetentativa !== "PERMITE_3R_7D") this.moveCycle(cycle, "REJEITADA", now);
    await this.notifyCycle(cycle, options.callback);
    return cycle;
  }

  /** Every cycle charge of recurrence `idRec`, in the order they were registered. */
  cyclesOf(idRec: string): CobR[] {
    return [...this.cycles.values()].filter((cycle) => cycle.idRec === idRec);
  }

  private found(idRec: string): Rec & { criacao: Date } {
    const rec = this.recs.get(idRec);
    if (rec === undefined) throw notFound(`no recurrence ${idRec}`);
    return rec;
  }

  private attempt(date: string, tipo: CobRTentativa["tipo"], now: Date): CobRTentativa {
    return {
      dataLiquidacao: date,
      tipo,
      status: "AGENDADA",
      endToEndId: newEndToEndId(PAYER_BANK_ISPB, now),
      atualizacao: [{ status: "AGENDADA", data: now.toISOString() }],
    };
  }

  /** The `ATIVA` charge `txid` and its attempt scheduled. */
  private scheduled(txid: string): { cycle: CobR; attempt: CobRTentativa } {
    const cycle = this.cycles.get(txid);
    if (cycle === undefined) throw new Error(`no cobr with txid ${txid}`);
    if (cycle.status !== "ATIVA") throw new Error(`cobr ${txid} is ${cycle.status}, not ATIVA`);
    const attempt = cycle.tentativas?.at(-1);
    if (attempt?.status !== "AGENDADA") throw new Error(`cobr ${txid} has no attempt scheduled: ask for a retry`);
    return { cycle, attempt };
  }

  /** Ends `rec` canceled by `by`, with its charges not paid; returns those charges. */
  private end(rec: Rec, by: "USUARIO_PAGADOR" | "USUARIO_RECEBEDOR", now: Date): CobR[] {
    const codigo = by === "USUARIO_PAGADOR" ? "SLDB" : "SLCR";
    rec.encerramento = { cancelamento: { solicitante: by, codigo, descricao: `Cancelada (${by})` } };
    this.move(rec, "CANCELADA", now);
    const open = this.cyclesOf(rec.idRec).filter((cycle) => cycle.status === "ATIVA" || cycle.status === "CRIADA");
    for (const cycle of open) this.cancelCycle(cycle, by, now);
    return open;
  }

  private cancelCycle(cycle: CobR, by: "USUARIO_PAGADOR" | "USUARIO_RECEBEDOR", now: Date): void {
    cycle.encerramento = { cancelamento: { solicitante: by, codigo: "SLCR", descricao: `Cancelada (${by})` } };
    for (const attempt of cycle.tentativas ?? []) {
      if (attempt.status === "AGENDADA" || attempt.status === "SOLICITADA") this.moveAttempt(attempt, "CANCELADA", now);
    }
    this.moveCycle(cycle, "CANCELADA", now);
  }

  private move(rec: Rec, status: RecStatus, now: Date): void {
    rec.status = status;
    rec.atualizacao = [...(rec.atualizacao ?? []), { status, data: now.toISOString() }];
  }

  private moveCycle(cycle: CobR, status: CobR["status"], now: Date): void {
    cycle.status = status;
    cycle.atualizacao = [...(cycle.atualizacao ?? []), { status, data: now.toISOString() }];
  }

  private moveAttempt(attempt: CobRTentativa, status: CobRTentativa["status"], now: Date): void {
    attempt.status = status;
    attempt.atualizacao = [...(attempt.atualizacao ?? []), { status, data: now.toISOString() }];
  }

  /** Posts `rec` as the standard's `RecNotification` to the `webhookrec` URL + `/rec`, unless dropped or none. */
  private async notifyRec(rec: Rec, choice: CallbackChoice | undefined): Promise<void> {
    if (choice === "drop" || this.webhooks.rec === null) return;
    const { idRec, status, atualizacao, encerramento, ativacao } = rec;
    await this.callbacks.notify(`${this.webhooks.rec}/rec`, {
      recs: [
        { idRec, status, atualizacao, ...(encerramento ? { encerramento } : {}), ...(ativacao ? { ativacao } : {}) },
      ],
    });
  }

  /** Posts `cycle` as the standard's `CobRNotification` to the `webhookcobr` URL + `/cobr`, unless dropped or none. */
  private async notifyCycle(cycle: CobR, choice: CallbackChoice | undefined): Promise<void> {
    if (choice === "drop" || this.webhooks.cobr === null) return;
    const { idRec, txid, status, atualizacao, tentativas, pix } = cycle;
    await this.callbacks.notify(`${this.webhooks.cobr}/cobr`, {
      cobsr: [{ idRec, txid, status, atualizacao, ...(tentativas ? { tentativas } : {}), ...(pix ? { pix } : {}) }],
    });
  }
}

/** The payer's document as the payer's bank reports it (`pagador`): the debtor's. */
function documentOf(rec: Rec): { cpf: string } | { cnpj: string } {
  const { cpf, cnpj } = rec.vinculo.devedor;
  return cpf !== undefined ? { cpf } : { cnpj: cnpj ?? "" };
}
