/**
 * Our client of a bank's API Pix (the `bcb` acquirer adapter's transport, DESIGN §9): the operations of the standard
 * that the acquirer port needs, and Efí's payouts. Amounts cross this client as integer centavos and go on the wire as
 * the standard's decimal strings; replies are returned as the bank sent them (types.ts).
 */
import { centavosFromValor, valorFromCentavos } from "./amounts";
import { PixApiError } from "./errors";
import { profileRules, type PixApiProfile } from "./profiles";
import { recurrenceOperations, type PixApiRecurrenceOperations } from "./recurrence-client";
import { createPixApiTransport, type PixApiCredentials } from "./transport";
import { type Cob, type CobV, type CobvTerms, type Devolucao, type LoteCobV, type Pix, type PixPayout } from "./types";

/** Default limit of each call to the bank, ms (DESIGN §9 "Transport"). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Where the bank is, who we are there, and the account's receiving key. */
export interface PixApiClientOptions {
  profile: PixApiProfile;
  /** The base the standard's paths are appended to, e.g. `https://pix.example.com/v2`. */
  apiUrl: string;
  /** The OAuth2 token endpoint, e.g. `https://pix.example.com/oauth/token`. */
  tokenUrl: string;
  credentials: PixApiCredentials;
  /** The account's Pix key (DICT key): the `chave` of charges and webhooks, and the payer key of payouts. */
  pixKey: string;
  /** Limit of each call, ms (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** A charge to register (`PUT /cob/{txid}`). */
export interface RegisterChargeInput {
  /** Our transaction id (the standard's `txid`: 26 to 35 letters and digits). */
  txid: string;
  /** Centavos. */
  amount: number;
  /** Lifetime, seconds (`calendario.expiracao`). */
  expiresIn: number;
  /** Who the charge is addressed to: a name and either a CPF (11 digits) or a CNPJ (14 characters). */
  debtor?: { name: string; cpf?: string; cnpj?: string };
  /** Text shown to the payer (`solicitacaoPagador`, at most 140 characters). */
  payerRequest?: string;
}

/** A due-date charge to register (`PUT /cobv/{txid}`, schema `CobVSolicitada`). */
export interface RegisterDueDateChargeInput {
  /** Our transaction id (the standard's `txid`: 26 to 35 letters and digits). */
  txid: string;
  /** The due date, the days it stays payable after, the original amount and the fine, interest, reduction and
   *  discount, as the standard writes them. */
  terms: CobvTerms;
  /** Who owes it (required by the standard for a `cobv`): a name and either a CPF or a CNPJ. */
  debtor: { name: string; cpf?: string; cnpj?: string };
  /** Text shown to the payer (`solicitacaoPagador`, at most 140 characters). */
  payerRequest?: string;
}

/** The standard's two kinds of charge: immediate (`cob`) and with a due date (`cobv`). */
export type ChargeKind = "cob" | "cobv";

/**
 * The operations, Pix Automático's included (recurrence-client.ts). Every one throws {@link PixApiError} for a failure
 * of the bank (`unavailable` or `rejected`); a read of something the bank does not know returns null.
 */
export interface PixApiClient extends PixApiRecurrenceOperations {
  /**
   * Registers a charge. When the PUT fails `unavailable`, or is refused with 400/409 (the standard gives a used txid
   * no error type of its own), the charge is read back: an existing charge with the same amount is returned, so a
   * retry never makes a second one.
   * @throws RangeError for an amount `valorFromCentavos` refuses
   * @throws PixApiError `rejected` (status null) when the txid is already a charge of another amount
   */
  registerCharge(input: RegisterChargeInput): Promise<Cob>;
  /**
   * Registers a due-date charge (`PUT /cobv/{txid}`), read back as {@link PixApiClient.registerCharge} does when
   * unsure, so a retry never makes a second one.
   * @throws PixApiError `rejected` (status null) when the txid is already a charge of another original amount
   */
  registerDueDateCharge(input: RegisterDueDateChargeInput): Promise<CobV>;
  /**
   * `PUT /lotecobv/{id}`: asks the bank to register `charges` as one batch (at most 1,000, `descricao` the batch's
   * description); the bank answers 202 and works on it, and {@link PixApiClient.getDueDateChargeBatch} tells each
   * charge's outcome. A batch id is used once: when the PUT fails `unavailable` or is refused with 400/409, the batch is
   * read back, and an existing one is taken as this one.
   * @param id - ours, a positive integer (the standard's int64)
   * @throws RangeError for an id that is not a positive safe integer
   */
  registerDueDateChargeBatch(id: number, description: string, charges: RegisterDueDateChargeInput[]): Promise<void>;
  /** `GET /lotecobv/{id}`: the batch with each charge's outcome; null when unknown. */
  getDueDateChargeBatch(id: number): Promise<LoteCobV | null>;
  /** `GET /cob/{txid}`: the charge, with its `pix` once paid; null when unknown. */
  getCharge(txid: string): Promise<Cob | null>;
  /** `GET /cobv/{txid}`: the due-date charge, with its `pix` once paid; null when unknown. */
  getDueDateCharge(txid: string): Promise<CobV | null>;
  /**
   * `PATCH /cob/{txid}` (or `/cobv/{txid}` for `kind` `cobv`) to `REMOVIDA_PELO_USUARIO_RECEBEDOR`. When the bank
   * refuses, the charge is read back and, if it is no longer ATIVA (paid, or already removed), returned as it is:
   * the caller looks at its `status`.
   */
  cancelCharge(txid: string, kind?: ChargeKind): Promise<Cob | CobV>;
  /** `GET /pix/{e2eid}`: a received payment with its devoluções; null when unknown. */
  getPayment(endToEndId: string): Promise<Pix | null>;
  /** `GET /pix?inicio&fim`, every page in turn: the payments received in [from, to], as the bank orders them. */
  listPayments(range: { from: Date; to: Date }): AsyncIterable<Pix>;
  /**
   * `PUT /pix/{e2eid}/devolucao/{id}`: asks for a devolução of `amount` centavos (natureza ORIGINAL). The bank keeps
   * one devolução per id, so repeating a call with the same id is safe.
   * @param input.id - our id for it (`^[a-zA-Z0-9]{1,35}$`)
   * @throws RangeError for an amount `valorFromCentavos` refuses
   */
  refundPix(input: { endToEndId: string; id: string; amount: number; description?: string }): Promise<Devolucao>;
  /** `GET /pix/{e2eid}/devolucao/{id}`; null when unknown. */
  getRefund(endToEndId: string, id: string): Promise<Devolucao | null>;
  /** `PUT /webhook/{chave}`: the bank posts its notifications to `webhookUrl` + "/pix". */
  registerWebhook(webhookUrl: string): Promise<void>;
  /** `GET /webhook/{chave}`; null when none is registered. */
  getWebhook(): Promise<{ webhookUrl: string } | null>;
  /**
   * Efí's `PUT /v3/gn/pix/{idEnvio}`: sends `amount` centavos from the account's key to `payeeKey`. Efí keeps one
   * payout per idEnvio.
   * @param input.idEnvio - our id for it (`^[a-zA-Z0-9]{1,35}$`)
   * @throws PixApiError `rejected` "payouts_unsupported" (status null, nothing sent) for a profile without payouts
   * @throws RangeError for an amount `valorFromCentavos` refuses
   */
  sendPixPayment(input: { idEnvio: string; amount: number; payeeKey: string }): Promise<PixPayout>;
  /**
   * Efí's `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`; null when unknown.
   * @throws PixApiError `rejected` "payouts_unsupported" for a profile without payouts
   */
  getPayout(idEnvio: string): Promise<PixPayout | null>;
  /** Destroys the keep-alive agent; the client is not used after. */
  close(): void;
}

/** One page of `GET /pix` (schema `PixConsultados`), as far as paging needs it. */
interface PixPage {
  parametros?: { paginacao?: { quantidadeDePaginas?: number } };
  pix?: Pix[];
}

/**
 * Creates a client for one bank account. Nothing is sent until the first operation.
 * @throws TypeError for an unknown profile, an `apiUrl` that is not absolute, or credentials without a certificate
 */
export function createPixApiClient(options: PixApiClientOptions): PixApiClient {
  const rules = profileRules(options.profile, options.apiUrl);
  const transport = createPixApiTransport({
    rules,
    tokenUrl: options.tokenUrl,
    credentials: options.credentials,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const call = async <T>(method: "GET" | "PUT" | "PATCH" | "POST", url: string, json?: object): Promise<T> =>
    objectReply<T>(await transport.request(method, url, json));
  const read = async <T>(url: string): Promise<T | null> => {
    try {
      return await call<T>("GET", url);
    } catch (err) {
      if (err instanceof PixApiError && err.kind === "rejected" && err.status === 404) return null;
      throw err;
    }
  };
  const payouts = () => {
    if (rules.payouts === null) throw new PixApiError("rejected", null, "payouts_unsupported");
    return rules.payouts;
  };

  const chargeUrl = (kind: ChargeKind, txid: string) => (kind === "cob" ? rules.cob(txid) : rules.cobv(txid));
  /**
   * `PUT`s a charge whose `valor.original` is `original`; when the bank's answer leaves us unsure (unreachable, or 400/409, which
   * the standard gives a used txid), reads the charge back and returns it if it is the same amount.
   */
  const putCharge = async <T extends Cob | CobV>(kind: ChargeKind, txid: string, body: object, original: string) => {
    const url = chargeUrl(kind, txid);
    try {
      return await call<T>("PUT", url, body);
    } catch (err) {
      const unsure =
        err instanceof PixApiError && (err.kind === "unavailable" || err.status === 400 || err.status === 409);
      if (!unsure) throw err;
      const existing = await read<T>(url);
      if (existing === null) throw err;
      if (centavosFromValor(existing.valor?.original) !== centavosFromValor(original)) {
        throw new PixApiError("rejected", null, `txid ${txid} is already a charge of another amount`);
      }
      return existing;
    }
  };

  return {
    ...recurrenceOperations({
      rules,
      call,
      read,
      send: async (method, url, json) => {
        await transport.request(method, url, json);
      },
    }),

    registerCharge: (input) =>
      putCharge<Cob>(
        "cob",
        input.txid,
        {
          calendario: { expiracao: input.expiresIn },
          ...(input.debtor === undefined ? {} : { devedor: devedor(input.debtor) }),
          valor: { original: valorFromCentavos(input.amount) },
          chave: options.pixKey,
          ...(input.payerRequest === undefined ? {} : { solicitacaoPagador: input.payerRequest }),
        },
        valorFromCentavos(input.amount),
      ),

    registerDueDateCharge: (input) =>
      putCharge<CobV>("cobv", input.txid, dueDateChargeBody(input, options.pixKey), input.terms.valor.original),

    async registerDueDateChargeBatch(id, description, charges) {
      if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`batch id ${id} is not a positive integer`);
      const body = {
        descricao: description,
        cobsv: charges.map((input) => ({ txid: input.txid, ...dueDateChargeBody(input, options.pixKey) })),
      };
      try {
        await transport.request("PUT", rules.lotecobv(id), body);
      } catch (err) {
        const unsure =
          err instanceof PixApiError && (err.kind === "unavailable" || err.status === 400 || err.status === 409);
        if (!unsure || (await read<LoteCobV>(rules.lotecobv(id))) === null) throw err;
      }
    },

    getDueDateChargeBatch: (id) => read<LoteCobV>(rules.lotecobv(id)),

    getCharge: (txid) => read<Cob>(rules.cob(txid)),

    getDueDateCharge: (txid) => read<CobV>(rules.cobv(txid)),

    async cancelCharge(txid, kind = "cob") {
      const url = chargeUrl(kind, txid);
      try {
        return await call<Cob | CobV>("PATCH", url, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
      } catch (err) {
        if (!(err instanceof PixApiError) || err.kind !== "rejected") throw err;
        const current = await read<Cob | CobV>(url);
        if (current === null || current.status === "ATIVA") throw err;
        return current;
      }
    },

    getPayment: (endToEndId) => read<Pix>(rules.pix(endToEndId)),

    async *listPayments(range) {
      for (let page = 0; ; page += 1) {
        const reply = await call<PixPage>("GET", rules.pixList(range, page));
        const items = Array.isArray(reply.pix) ? reply.pix : [];
        yield* items;
        const pages = reply.parametros?.paginacao?.quantidadeDePaginas;
        // An empty page ends the walk too, so a bank that miscounts its pages cannot keep us reading forever.
        if (items.length === 0 || typeof pages !== "number" || page + 1 >= pages) return;
      }
    },

    refundPix: (input) =>
      call<Devolucao>("PUT", rules.refund(input.endToEndId, input.id), {
        valor: valorFromCentavos(input.amount),
        ...(input.description === undefined ? {} : { descricao: input.description }),
      }),

    getRefund: (endToEndId, id) => read<Devolucao>(rules.refund(endToEndId, id)),

    async registerWebhook(webhookUrl) {
      await transport.request("PUT", rules.webhook(options.pixKey), { webhookUrl });
    },

    async getWebhook() {
      const webhook = await read<{ webhookUrl?: unknown }>(rules.webhook(options.pixKey));
      if (webhook === null) return null;
      if (typeof webhook.webhookUrl !== "string") {
        throw new PixApiError("unavailable", null, "webhook reply without webhookUrl");
      }
      return { webhookUrl: webhook.webhookUrl };
    },

    async sendPixPayment(input) {
      const body = {
        valor: valorFromCentavos(input.amount),
        pagador: { chave: options.pixKey },
        favorecido: { chave: input.payeeKey },
      };
      return payoutReply(await call<PixPayout & { endToEndId?: string }>("PUT", payouts().send(input.idEnvio), body));
    },

    async getPayout(idEnvio) {
      const payout = await read<PixPayout & { endToEndId?: string }>(payouts().read(idEnvio));
      return payout === null ? null : payoutReply(payout);
    },

    close() {
      transport.close();
    },
  };
}

/** The standard's `CobVSolicitada` of `input`, charged to `pixKey`. */
function dueDateChargeBody(input: RegisterDueDateChargeInput, pixKey: string) {
  return {
    calendario: input.terms.calendario,
    devedor: devedor(input.debtor),
    valor: input.terms.valor,
    chave: pixKey,
    ...(input.payerRequest === undefined ? {} : { solicitacaoPagador: input.payerRequest }),
  };
}

/** Our debtor as the standard's `devedor` (`PessoaFisica` or `PessoaJuridica`). */
function devedor(debtor: { name: string; cpf?: string; cnpj?: string }) {
  return {
    nome: debtor.name,
    ...(debtor.cpf === undefined ? {} : { cpf: debtor.cpf }),
    ...(debtor.cnpj === undefined ? {} : { cnpj: debtor.cnpj }),
  };
}

/**
 * Efí names the end-to-end id `e2eId` when a payout is sent and `endToEndId` when it is read back; the payout carries
 * it as `e2eId` either way.
 */
function payoutReply(reply: PixPayout & { endToEndId?: string }): PixPayout {
  if (reply.e2eId === undefined && typeof reply.endToEndId === "string") return { ...reply, e2eId: reply.endToEndId };
  return reply;
}

/**
 * A 2xx reply's body as the object the operation expects.
 * @throws PixApiError `unavailable` when it is not a JSON object (the bank answered, but not in the standard)
 */
function objectReply<T>(body: unknown): T {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new PixApiError("unavailable", null, "the bank's reply is not a JSON object");
  }
  return body as T;
}
