/**
 * Jobs (DESIGN §1 "Write, then enqueue"): enqueuing after commit, the delivery and inbox queues' job shapes, recording
 * jobs that gave up, and the batcher that groups concurrent work into one statement or round trip.
 */
export * from "./enqueue-after-commit";
export * from "./delivery-jobs";
export * from "./inbox-jobs";
export * from "./given-up-jobs";
export * from "./batcher";
