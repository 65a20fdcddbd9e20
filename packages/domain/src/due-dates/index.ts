/**
 * Due-date charges' money math (DESIGN §13; the API Pix standard's `cobv`, `bacen/pix-api` `openapi.yaml` release
 * 2.9): the terms in our names, the amount due on a day, the due date's move to a business day, the payable window,
 * the terms' validation and their mapping to the standard's fields. Pure: no clock, no I/O; dates are `YYYY-MM-DD`
 * calendar dates in America/Sao_Paulo, amounts integer centavos.
 */
export { amountDue, type AmountDue } from "./amount-due";
export { isBusinessDay, nationalHolidays } from "./business-days";
export { fromCobvTerms, toCobvTerms } from "./cobv-terms";
export * from "./due-date-terms";
export { endOfSaoPauloDay, noonInSaoPaulo, saoPauloDate } from "./iso-dates";
export { assertPayableOn, effectiveDueDate, isPayableOn, lastPayableDate } from "./payable-window";
export { validateDueDateTerms, type ValidateDueDateTermsOptions } from "./validate-due-date-terms";
