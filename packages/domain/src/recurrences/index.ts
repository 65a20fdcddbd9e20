/**
 * Pix Automático (DESIGN §14): recurrences, their calendar, our recurrence engine, test clocks, and a bank's reports
 * of live recurrences.
 */
export * from "./cycle-dates";
export * from "./recurrence-events";
export * from "./find-recurrences";
export * from "./create-recurrence";
export * from "./recurrence-engine";
export * from "./manage-recurrences";
export * from "./test-clocks";
export * from "./bank-notices";
