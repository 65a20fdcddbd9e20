/**
 * Batches of due-date charges (DESIGN §13 "Batches", the standard's `lotecobv`): accepting one, the worker's run that
 * makes its charges and completes it with its event, and reads.
 */
export * from "./create-transaction-batch";
export * from "./continue-transaction-batch";
export * from "./find-transaction-batches";
export * from "./transaction-batch-events";
