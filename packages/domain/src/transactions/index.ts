/**
 * Charges (SPEC "Transactions", DESIGN §5, §9, §13): txid, creation, reads, cancel, expiry, their events, and what a
 * due-date charge is owed.
 */
export * from "./txid";
export * from "./charge-row";
export * from "./transaction-events";
export * from "./create-transaction";
export * from "./find-transactions";
export * from "./cancel-transaction";
export * from "./expire-transaction";
export * from "./due-date-charge";
