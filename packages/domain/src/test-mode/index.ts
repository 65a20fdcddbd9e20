/**
 * Test mode's triggers (DESIGN §12): a simulated payment, dispute and expiration of a test charge, each through the
 * same path as the real event (the sandbox's notification, the expiry sweep).
 */
export * from "./simulate-dispute";
export * from "./simulate-expiration";
export * from "./simulate-payment";
