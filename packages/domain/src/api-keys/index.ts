/**
 * API keys (SPEC "API keys", DESIGN §3): creating, authenticating (with a per-process cache), listing, rolling and
 * revoking a store's keys.
 */
export * from "./api-key";
export * from "./create-api-key";
export * from "./api-key-cache";
export * from "./authenticate-api-key";
export * from "./manage-api-keys";
