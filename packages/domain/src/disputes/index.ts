/**
 * Disputes (MED, DESIGN §11): recording a devolução the payer's bank made, reading and mailing them.
 */
export * from "./disputes";
