/**
 * The wire format of the service: the JSON Schema and TypeScript type of every object it sends (replies and event
 * payloads are the same objects, SPEC "Event envelope"), the error catalog, and the building blocks of both. The API
 * replies with these objects, the worker stores them in events, and the OpenAPI document is generated from them.
 */
export * from "./schema";
export * from "./errors";
export * from "./common";
export * from "./probes";
export * from "./users";
export * from "./notifications";
export * from "./transactions";
export * from "./qr-codes";
export * from "./transaction-batches";
export * from "./recurrences";
export * from "./events";
export * from "./inbox";
export * from "./api-keys";
export * from "./webhook-endpoints";
export * from "./sellers";
export * from "./balance";
export * from "./refunds";
export * from "./payout-keys";
export * from "./withdrawals";
export * from "./disputes";
export * from "./event-catalog";
