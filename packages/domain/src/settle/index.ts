/**
 * Settlement (DESIGN §5, §7, §9, §11): processing a stored inbox item, the one module that knows every kind of outcome
 * (a payment, a refund's or payout's outcome, a dispute), and settling payments in batches.
 */
export * from "./process-inbox-item";
export * from "./settle-payments";
