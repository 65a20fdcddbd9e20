/**
 * The security audit trail (DESIGN §11 "Account safety"): what is recorded and told to a seller's owners when their
 * account's security changes.
 */
export * from "./security-audit";
