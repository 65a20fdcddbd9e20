-- An endpoint's stats read its finished attempts (`attempted_at` set when an attempt finishes) through an index of
-- `(endpoint_id, attempted_at, status, event_type)`. A pending row has no `attempted_at` and is never read through it,
-- yet each delivery row entered it twice: at its insert, still pending, and again at the update that finished the
-- attempt (not a HOT update: `status` and `attempted_at` change). Made partial, the index takes each row once, at that
-- update: one index entry less per delivery row in the heap, the index and the WAL (DESIGN §10 "No copies"). Prisma 6
-- can neither declare nor introspect a partial index (see `schema.prisma`). On the partitioned table, the parent's
-- index is made on every week's partition.
DROP INDEX "webhook_deliveries_endpoint_id_attempted_at_status_event_ty_idx";

CREATE INDEX "webhook_deliveries_finished_attempts_idx" ON "webhook_deliveries"("endpoint_id", "attempted_at", "status", "event_type")
  WHERE "attempted_at" IS NOT NULL;
