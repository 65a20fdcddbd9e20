/**
 * Charges (SPEC "Transactions", DESIGN §5, §9): txid, creation, reads, cancel, expiry, and their events.
 */
export * from "./txid";
export * from "./transaction-events";
export * from "./create-transaction";
export * from "./find-transactions";
export * from "./cancel-transaction";
export * from "./expire-transaction";
