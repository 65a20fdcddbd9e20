/**
 * Webhook signing and policy (SPEC "Webhooks", DESIGN §4): secrets, signatures, destinations, the retry schedule and
 * auto-disable.
 */
export * from "./destination";
export * from "./signature";
export * from "./retry-policy";
export * from "./auto-disable";
export * from "./webhook-secret";
export * from "./custom-headers";
