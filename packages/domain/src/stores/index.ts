/**
 * A store's settings that outlive a request: the postback secret of its charges' `postback_url` deliveries (DESIGN
 * §4).
 */
export * from "./postback-secret";
