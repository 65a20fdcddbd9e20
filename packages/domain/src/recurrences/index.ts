/**
 * Pix Automático (DESIGN §14): recurrences, their calendar, our recurrence engine, and test clocks.
 */
export * from "./cycle-dates";
export * from "./recurrence-events";
export * from "./find-recurrences";
export * from "./create-recurrence";
export * from "./recurrence-engine";
export * from "./manage-recurrences";
export * from "./test-clocks";
