export * from "./payout-kind";
export * from "./create-payout";
export * from "./submit-payout";
export * from "./settle-payout";
export * from "./refunds";
export * from "./withdrawals";
export * from "./find-payouts";
