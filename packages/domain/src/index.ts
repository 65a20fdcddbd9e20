/**
 * The domain's public face: each module's face (its `index.ts`) and the kernel every module shares (deps, errors,
 * ids, documents, secrets, paging).
 */
export * from "./api-keys";
export * from "./documents";
export * from "./document-at-rest";
export * from "./text";
export * from "./errors";
export * from "./ids";
export * from "./secret-box";
export * from "./sellers";
export * from "./events";
export * from "./accounts";
export * from "./email";
export * from "./two-factor";
export * from "./webhooks";
export * from "./deps";
export * from "./jobs";
export * from "./paging";
export * from "./random";
export * from "./idempotency";
export * from "./transactions";
export * from "./qr-codes";
export * from "./transaction-batches";
export * from "./recurrences";
export * from "./due-dates";
export * from "./br-code";
export * from "./acquirers";
export * from "./inbound";
export * from "./settle";
export * from "./test-mode";
export * from "./notifications";
export * from "./audit";
export * from "./stores";
export * from "./webhook-endpoints";
export * from "./balance";
export * from "./disputes";
export * from "./payouts";
export * from "./payout-keys";
export * from "./deliveries";
export * from "./retention";
