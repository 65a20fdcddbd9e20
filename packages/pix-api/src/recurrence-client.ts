/**
 * Pix Automático's operations of our API Pix client (DESIGN §14 "Live"): recurrences (`rec`), their locations
 * (`locrec`), push requests (`solicrec`), cycle charges (`cobr`) with their retries (`retentativa`), and the two
 * webhooks (`webhookrec`, `webhookcobr`). Amounts cross as integer centavos. A write whose answer leaves us unsure (the
 * bank unreachable, or a 400/409, which the standard also gives a repeat) is read back, so a retry never makes a
 * second object: a `cobr` by our txid, a `rec` by the location it names or its contract, a `solicrec` through its
 * recurrence, a retry by its date.
 */
import { centavosFromValor, valorFromCentavos } from "./amounts";
import { PixApiError } from "./errors";
import type { PixApiProfileRules } from "./profiles";
import type { CobR, CobRRecebedor, LocRec, Rec, RecPeriodicidade, RecRetryPolicy, SolicRec } from "./recurrence-types";

/** A recurrence to create (`POST /rec`, `RecSolicitada`). */
export interface CreateRecurrenceInput {
  /** The merchant's contract reference (`vinculo.contrato`, at most 35 characters). */
  contract: string;
  /** What the payer is charged for (`vinculo.objeto`, at most 35 characters). */
  object?: string;
  /** The payer (`vinculo.devedor`): a name (at most 140 characters) and either a CPF or a CNPJ. */
  debtor: { name: string; cpf?: string; cnpj?: string };
  /** `YYYY-MM-DD`: the first cycle's due date (`calendario.dataInicial`), and the last one may fall on. */
  startDate: string;
  endDate?: string;
  periodicity: RecPeriodicidade;
  /** Centavos of every cycle (`valor.valorRec`), or the least a cycle may be (`valor.valorMinimoRecebedor`). */
  amount?: number;
  minimumAmount?: number;
  retryPolicy: RecRetryPolicy;
  /** The location (`POST /locrec`) whose QR code authorizes it: the QR journeys. */
  locationId?: number;
  /** The immediate charge (`cob`) paid with the authorization: journey 3 (`ativacao.dadosJornada.txid`). */
  firstPaymentTxid?: string;
}

/** A push request to the payer's bank (`POST /solicrec`, `SolicRecSolicitada`). */
export interface RequestRecurrenceInput {
  idRec: string;
  /** When the payer's bank stops waiting for an answer (`calendario.dataExpiracaoSolicitacao`). */
  expiresAt: Date;
  /** The payer's account (`destinatario`): its bank's ISPB, branch and number, and the holder's document. */
  payer: { ispb: string; branch?: string; account: string; cpf?: string; cnpj?: string };
}

/** A cycle charge to register (`PUT /cobr/{txid}`, `CobRSolicitada`). */
export interface RegisterCycleChargeInput {
  /** Ours, 26 to 35 letters and digits, chosen before the call: the charge's idempotency key. */
  txid: string;
  idRec: string;
  /** `YYYY-MM-DD`. */
  dueDate: string;
  /** Centavos. */
  amount: number;
  /** The receiving account (`recebedor`). */
  account: CobRRecebedor;
  /** Shown to the payer (`infoAdicional`, at most 140 characters). */
  description?: string;
}

/** The Pix Automático operations; each throws `PixApiError` as the client's others do. */
export interface PixApiRecurrenceOperations {
  /** `POST /locrec`: a new location for a recurrence's QR code. An unsure call may leave a location unused. */
  createRecurrenceLocation(): Promise<LocRec>;
  /** `GET /locrec/{id}`; null when unknown. */
  getRecurrenceLocation(id: number): Promise<LocRec | null>;
  /**
   * `POST /rec`. When unsure, the recurrences created meanwhile for the debtor (`GET /rec`) are read and the one with
   * the same location (or, without one, contract, calendar and amount) is taken as this one.
   * @throws RangeError for an amount `valorFromCentavos` refuses
   */
  createRecurrence(input: CreateRecurrenceInput): Promise<Rec>;
  /**
   * The recurrence `input` created in `range` (`GET /rec` for its debtor, every page), matched as an unsure
   * `POST /rec` is read back; null when there is none: a resumed creation's check before it creates again.
   */
  findRecurrence(input: CreateRecurrenceInput, range: { from: Date; to: Date }): Promise<Rec | null>;
  /** `GET /rec/{idRec}`, with `txid` the composite BR Code of journey 3 in `dadosQR`; null when unknown. */
  getRecurrence(idRec: string, txid?: string): Promise<Rec | null>;
  /**
   * `PATCH /rec/{idRec}` to `CANCELADA`. When refused, the recurrence is read back and, if it has ended already
   * (canceled, rejected, expired), returned as it is.
   */
  cancelRecurrence(idRec: string): Promise<Rec>;
  /** `POST /solicrec`. When unsure, the recurrence's `solicitacao` is read back for a request sent meanwhile. */
  requestRecurrence(input: RequestRecurrenceInput): Promise<SolicRec>;
  /** `GET /solicrec/{idSolicRec}`; null when unknown. */
  getRecurrenceRequest(idSolicRec: string): Promise<SolicRec | null>;
  /**
   * `PUT /cobr/{txid}`. When unsure, the charge is read back: an existing one of the same recurrence and amount is
   * returned.
   * @throws PixApiError `rejected` (status null) when the txid is already another charge
   */
  registerCycleCharge(input: RegisterCycleChargeInput): Promise<CobR>;
  /** `GET /cobr/{txid}`: with its attempts and, once paid, its `pix`; null when unknown. */
  getCycleCharge(txid: string): Promise<CobR | null>;
  /** `PATCH /cobr/{txid}` to `CANCELADA`; when refused, an ended charge (paid, canceled...) is returned as it is. */
  cancelCycleCharge(txid: string): Promise<CobR>;
  /**
   * `POST /cobr/{txid}/retentativa/{data}`: asks the payer's bank to debit a failed cycle again on `date`. When
   * unsure, the charge is read back and returned if it has an attempt for that date.
   */
  retryCycleCharge(txid: string, date: string): Promise<CobR>;
  /** `PUT /webhookrec` and `PUT /webhookcobr`: the bank posts to `webhookUrl` + `/rec` and + `/cobr`. */
  registerRecurrenceWebhooks(webhookUrl: string): Promise<void>;
}

/** What the operations need of the client: its calls and its routes. */
export interface RecurrenceHttp {
  rules: PixApiProfileRules;
  /** A 2xx reply's JSON object. */
  call<T>(method: "GET" | "PUT" | "PATCH" | "POST", url: string, json?: object): Promise<T>;
  /** A GET, null on 404. */
  read<T>(url: string): Promise<T | null>;
  /** A request whose reply body is not read. */
  send(method: "PUT", url: string, json: object): Promise<void>;
}

/** Whether `err` leaves a write's outcome unknown: the bank unreachable, or a 400/409 that a repeat also gets. */
function unsure(err: unknown): boolean {
  return err instanceof PixApiError && (err.kind === "unavailable" || err.status === 400 || err.status === 409);
}

/** How far around an unsure `POST /rec` the bank's list is read for it, ms. */
export const READ_BACK_WINDOW_MS = 10 * 60_000;

/** One page of `GET /rec` (`RecsConsultadas`), as far as the read-back needs it. */
interface RecPage {
  parametros?: { paginacao?: { quantidadeDePaginas?: number } };
  recs?: Rec[];
}

/** The standard's `RecSolicitada` of `input`. */
function recBody(input: CreateRecurrenceInput) {
  const { debtor } = input;
  return {
    vinculo: {
      contrato: input.contract,
      ...(input.object === undefined ? {} : { objeto: input.object }),
      devedor: { nome: debtor.name, ...(debtor.cpf === undefined ? { cnpj: debtor.cnpj } : { cpf: debtor.cpf }) },
    },
    calendario: {
      dataInicial: input.startDate,
      ...(input.endDate === undefined ? {} : { dataFinal: input.endDate }),
      periodicidade: input.periodicity,
    },
    valor:
      input.amount === undefined
        ? { valorMinimoRecebedor: valorFromCentavos(input.minimumAmount ?? 0) }
        : { valorRec: valorFromCentavos(input.amount) },
    politicaRetentativa: input.retryPolicy,
    ...(input.locationId === undefined ? {} : { loc: input.locationId }),
    ...(input.firstPaymentTxid === undefined ? {} : { ativacao: { dadosJornada: { txid: input.firstPaymentTxid } } }),
  };
}

/** Whether `rec`, read back after an unsure `POST /rec`, is the one `input` asked for. */
function isSameRecurrence(rec: Rec, input: CreateRecurrenceInput): boolean {
  if (input.locationId !== undefined) return rec.loc?.id === input.locationId;
  const amount = input.amount ?? input.minimumAmount;
  const recAmount = centavosFromValor(rec.valor?.valorRec ?? rec.valor?.valorMinimoRecebedor);
  return (
    rec.loc === undefined &&
    rec.vinculo.contrato === input.contract &&
    rec.calendario.dataInicial === input.startDate &&
    rec.calendario.periodicidade === input.periodicity &&
    recAmount === amount
  );
}

/** The Pix Automático operations over `http`. */
export function recurrenceOperations(http: RecurrenceHttp): PixApiRecurrenceOperations {
  const { rules, call, read } = http;

  /** The recurrences created in `range` for `debtor`, every page in turn. */
  async function* listRecurrences(range: { from: Date; to: Date }, debtor: { cpf?: string; cnpj?: string }) {
    for (let page = 0; ; page += 1) {
      const reply = await call<RecPage>("GET", rules.recList(range, debtor, page));
      const recs = Array.isArray(reply.recs) ? reply.recs : [];
      yield* recs;
      const pages = reply.parametros?.paginacao?.quantidadeDePaginas;
      if (recs.length === 0 || typeof pages !== "number" || page + 1 >= pages) return;
    }
  }

  /** `PATCH`es `url` to `CANCELADA`; when refused, returns the object read back if it is no longer `live`. */
  async function cancel<T extends { status: string }>(url: string, live: string[]): Promise<T> {
    try {
      return await call<T>("PATCH", url, { status: "CANCELADA" });
    } catch (err) {
      if (!(err instanceof PixApiError) || err.kind !== "rejected") throw err;
      const current = await read<T>(url);
      if (current === null || live.includes(current.status)) throw err;
      return current;
    }
  }

  /** The recurrence `input` asked for among those created in `range`, or null. */
  async function findRecurrence(input: CreateRecurrenceInput, range: { from: Date; to: Date }): Promise<Rec | null> {
    const debtor = input.debtor.cpf === undefined ? { cnpj: input.debtor.cnpj } : { cpf: input.debtor.cpf };
    for await (const rec of listRecurrences(range, debtor)) {
      if (isSameRecurrence(rec, input)) return rec;
    }
    return null;
  }

  return {
    createRecurrenceLocation: () => call<LocRec>("POST", rules.locrec()),

    getRecurrenceLocation: (id) => read<LocRec>(rules.locrec(id)),

    async createRecurrence(input) {
      const body = recBody(input);
      const sentAt = Date.now();
      try {
        return await call<Rec>("POST", rules.rec(), body);
      } catch (err) {
        if (!unsure(err)) throw err;
        const range = { from: new Date(sentAt - READ_BACK_WINDOW_MS), to: new Date(Date.now() + READ_BACK_WINDOW_MS) };
        const found = await findRecurrence(input, range);
        if (found === null) throw err;
        return found;
      }
    },

    findRecurrence,

    getRecurrence: (idRec, txid) => read<Rec>(rules.rec(idRec, txid)),

    cancelRecurrence: (idRec) => cancel<Rec>(rules.rec(idRec), ["CRIADA", "APROVADA"]),

    async requestRecurrence(input) {
      const { payer } = input;
      const body = {
        idRec: input.idRec,
        calendario: { dataExpiracaoSolicitacao: input.expiresAt.toISOString() },
        destinatario: {
          ispbParticipante: payer.ispb,
          ...(payer.branch === undefined ? {} : { agencia: payer.branch }),
          conta: payer.account,
          ...(payer.cpf === undefined ? { cnpj: payer.cnpj } : { cpf: payer.cpf }),
        },
      };
      try {
        return await call<SolicRec>("POST", rules.solicrec(), body);
      } catch (err) {
        if (!unsure(err)) throw err;
        const rec = await read<Rec>(rules.rec(input.idRec));
        const sent = (rec?.solicitacao ?? []).find((request) => request.status !== "CANCELADA");
        if (sent === undefined) throw err;
        return sent;
      }
    },

    getRecurrenceRequest: (idSolicRec) => read<SolicRec>(rules.solicrec(idSolicRec)),

    async registerCycleCharge(input) {
      const url = rules.cobr(input.txid);
      const original = valorFromCentavos(input.amount);
      const body = {
        idRec: input.idRec,
        ...(input.description === undefined ? {} : { infoAdicional: input.description }),
        calendario: { dataDeVencimento: input.dueDate },
        valor: { original },
        ajusteDiaUtil: true,
        recebedor: input.account,
      };
      try {
        return await call<CobR>("PUT", url, body);
      } catch (err) {
        if (!unsure(err)) throw err;
        const existing = await read<CobR>(url);
        if (existing === null) throw err;
        if (existing.idRec !== input.idRec || centavosFromValor(existing.valor?.original) !== input.amount) {
          throw new PixApiError("rejected", null, `txid ${input.txid} is already another cycle charge`);
        }
        return existing;
      }
    },

    getCycleCharge: (txid) => read<CobR>(rules.cobr(txid)),

    cancelCycleCharge: (txid) => cancel<CobR>(rules.cobr(txid), ["CRIADA", "ATIVA"]),

    async retryCycleCharge(txid, date) {
      try {
        return await call<CobR>("POST", rules.cobrRetry(txid, date));
      } catch (err) {
        if (!unsure(err)) throw err;
        const existing = await read<CobR>(rules.cobr(txid));
        if (!(existing?.tentativas ?? []).some((attempt) => attempt.dataLiquidacao === date)) throw err;
        return existing as CobR;
      }
    },

    async registerRecurrenceWebhooks(webhookUrl) {
      await http.send("PUT", rules.webhookrec, { webhookUrl });
      await http.send("PUT", rules.webhookcobr, { webhookUrl });
    },
  };
}
