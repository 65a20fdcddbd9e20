-- Ordered deliveries (DESIGN §16): the rows of a FIFO endpoint, and the rows a pause holds, wait their turn in their
-- endpoint's order of events. Such a row has `ordered` true; every other row keeps it null, which costs it nothing
-- (a null is a bit of the null bitmap the row already has), so endpoints without controls store what they stored.
--
-- An ordered row leaves the reconciler's due index (the sweep would otherwise offer each held row every 30 s) and is
-- found instead through an index of the ordered rows by endpoint and event: its endpoint's head (the first of them)
-- is the only one sent, and each head's end gives the next one its job. Both are partial indexes, which Prisma 6 can
-- neither declare nor introspect (see `schema.prisma`). On a large table, build each by hand first, without blocking
-- writes (CREATE INDEX CONCURRENTLY with the same name and definition), and this migration then finds it.

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "ordered" BOOLEAN;

CREATE INDEX IF NOT EXISTS "webhook_deliveries_ordered_idx" ON "webhook_deliveries" ("endpoint_id", "event_id", "id")
  WHERE "status" = 'pending' AND "ordered" AND "job_given_up_at" IS NULL;

-- The due index without the ordered rows, under a name of its own so that it can be built by hand first; it replaces
-- `webhook_deliveries_pending_due_idx`.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_unordered_due_idx" ON "webhook_deliveries" ("scheduled_at", "id")
  WHERE "status" = 'pending' AND "job_given_up_at" IS NULL AND "ordered" IS NULL;

DROP INDEX IF EXISTS "webhook_deliveries_pending_due_idx";
