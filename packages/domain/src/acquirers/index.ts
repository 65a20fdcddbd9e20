/**
 * Acquirers (DESIGN §9): the port the service moves money through, the registry of which adapter serves a mode or a
 * row (and so which acquirer holds a row's money), the in-process sandbox, and the bank operators' commands.
 */
export * from "./acquirer-attempt";
export * from "./acquirer-port";
export * from "./bank-acquirer";
export * from "./bank-operations";
export * from "./bank-recurrences";
export * from "./money-holder";
export * from "./sandbox-acquirer";
