/**
 * The standard's error replies: problem JSON (RFC 7807 `{type, title, status, detail, violacoes?}`, the standard's
 * `Problema` and `Violacao` schemas), with the types the standard names under its error base.
 */
import { STATUS_CODES } from "node:http";

/** One field that broke a rule (the standard's `Violacao`). */
export interface Violation {
  /** What is wrong. */
  razao: string;
  /** Dotted path of the field, prefixed with the resource (`cob.valor.original`). */
  propriedade: string;
  /** The offending value, when it is a scalar. */
  valor?: string;
}

/** The standard's `Problema`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  violacoes?: Violation[];
}

const ERROR_BASE = "https://pix.bcb.gov.br/api/v2/error/";

/** Problem types used by the emulator: the standard's names, plus the few situations it names no type for. */
export const PROBLEM_TYPES = {
  notFound: `${ERROR_BASE}NaoEncontrado`,
  unavailable: `${ERROR_BASE}ServicoIndisponivel`,
  cobInvalid: `${ERROR_BASE}CobOperacaoInvalida`,
  cobTxidDuplicate: `${ERROR_BASE}cob/txid-duplicado`,
  batchInvalid: `${ERROR_BASE}LoteCobVOperacaoInvalida`,
  recInvalid: `${ERROR_BASE}RecOperacaoInvalida`,
  solicRecInvalid: `${ERROR_BASE}SolicRecOperacaoInvalida`,
  cobrInvalid: `${ERROR_BASE}CobROperacaoInvalida`,
  refundInvalid: `${ERROR_BASE}PixDevolucaoInvalida`,
  webhookInvalid: `${ERROR_BASE}WebhookOperacaoInvalida`,
  requestInvalid: `${ERROR_BASE}RequisicaoInvalida`,
  payoutInvalid: `${ERROR_BASE}EnvioPixInvalido`,
  unauthorized: `${ERROR_BASE}NaoAutorizado`,
  methodNotAllowed: `${ERROR_BASE}MetodoNaoPermitido`,
} as const;

/** A refusal the routes turn into a problem reply. */
export class ProblemError extends Error {
  readonly problem: Problem;

  constructor(type: string, status: number, title: string, detail: string, violacoes?: Violation[]) {
    super(detail);
    this.name = "ProblemError";
    this.problem = { type, title, status, detail, ...(violacoes ? { violacoes } : {}) };
  }
}

/** 404 for an unknown resource. */
export function notFound(detail: string): ProblemError {
  return new ProblemError(PROBLEM_TYPES.notFound, 404, "Not found", detail);
}

/**
 * The problem sent for a scripted failure (`failNext`): the standard's `ServicoIndisponivel` for 503, otherwise
 * RFC 7807's `about:blank` titled with the status' reason phrase.
 */
export function scriptedFailure(status: number): Problem {
  if (status === 503) {
    return { type: PROBLEM_TYPES.unavailable, title: "Service unavailable", status, detail: "scripted failure" };
  }
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail: "scripted failure" };
}
