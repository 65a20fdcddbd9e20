/**
 * A seller's balance (DESIGN §7): the append-only ledger of integer centavos, its running balances, and their reads.
 */
export * from "./ledger";
export * from "./find-balance";
