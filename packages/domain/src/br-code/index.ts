/**
 * The BR Code (EMV payload) of a Pix charge and its QR image, drawn by the sandbox and by charge creation.
 */
export * from "./br-code";
export * from "./qr-segments";
