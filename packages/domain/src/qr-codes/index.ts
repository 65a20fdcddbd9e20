/**
 * Reusable QR codes (DESIGN §13, static Pix): creation, reads and deactivation. Their payments settle in `settle`,
 * each as a charge of its own, born paid; test mode pays them through the sandbox (`test-mode`).
 */
export * from "./create-qr-code";
export * from "./find-qr-codes";
