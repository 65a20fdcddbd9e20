/**
 * Inbound notifications (DESIGN §5, §9): who may post them (acquirers and their secrets), reading the standard's body,
 * receiving and storing every request in the inbox first, enqueuing what processing can settle, and the operators'
 * list and reprocess. Nothing here moves money: `settle/` does.
 */
export * from "./acquirer-secrets";
export * from "./enqueue-inbox-items";
export * from "./inbox";
export * from "./inbox-errors";
export * from "./pix-notification";
export * from "./receive-notification";
export * from "./settlement";
