/**
 * `@lm/pix-api`: our client of the Central Bank's API Pix standard (DESIGN §9) over mutual TLS and OAuth2 client
 * credentials, with Efí's payouts, and the conversion between integer centavos and the standard's decimal strings.
 */
export { MAX_VALOR_CENTAVOS, centavosFromValor, valorFromCentavos } from "./amounts";
export {
  DEFAULT_TIMEOUT_MS,
  createPixApiClient,
  type ChargeKind,
  type PixApiClient,
  type PixApiClientOptions,
  type RegisterChargeInput,
  type RegisterDueDateChargeInput,
} from "./client";
export {
  type CreateRecurrenceInput,
  type PixApiRecurrenceOperations,
  type RegisterCycleChargeInput,
  type RequestRecurrenceInput,
  READ_BACK_WINDOW_MS,
} from "./recurrence-client";
export type {
  CobR,
  CobRAttemptStatus,
  CobRRecebedor,
  CobRStatus,
  CobRTentativa,
  LocRec,
  Rec,
  RecCancelRequester,
  RecEncerramento,
  RecPeriodicidade,
  RecRetryPolicy,
  RecStatus,
  SolicRec,
  SolicRecStatus,
} from "./recurrence-types";
export { MAX_REASON_LENGTH, PixApiError, type PixApiErrorKind } from "./errors";
export { type PixApiProfile } from "./profiles";
export { type PixApiCredentials } from "./transport";
export type {
  Cob,
  CobStatus,
  CobV,
  CobvDescontoDataFixa,
  CobvModalidade,
  CobvTerms,
  Devolucao,
  DevolucaoNatureza,
  LoteCobV,
  Pix,
  PixComponentesValor,
  PixPayout,
  PixPerson,
  Problem,
} from "./types";
