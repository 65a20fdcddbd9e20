/**
 * Jobs (DESIGN §1 "Write, then enqueue"): enqueuing after commit, the delivery queue's job ids, and recording jobs
 * that gave up.
 */
export * from "./enqueue-after-commit";
export * from "./delivery-jobs";
export * from "./given-up-jobs";
