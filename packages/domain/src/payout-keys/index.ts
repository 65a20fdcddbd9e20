/**
 * Payout keys (DESIGN §7): the seller's own Pix keys that withdrawals may go to, with their cooling-off period.
 */
export * from "./payout-keys";
