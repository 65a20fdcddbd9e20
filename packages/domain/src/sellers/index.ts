/**
 * Sellers and their stores (SPEC "Sellers", DESIGN §7): creation, profile, KYC and tax documents at rest.
 */
export * from "./create-seller";
export * from "./encrypt-clear-documents";
export * from "./seller-store";
export * from "./seller-profile";
export * from "./seller-document";
