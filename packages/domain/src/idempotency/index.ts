/**
 * Idempotency keys (SPEC "Idempotency"): claiming a key, replaying the kept reply, and the reply a use case stores.
 */
export * from "./idempotency-keys";
