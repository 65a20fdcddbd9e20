-- The reconciler's sweep reads the pending rows whose job was not given up, in id order: a partial index of exactly
-- those replaces (status, scheduled_at), through which a sweep read every due row for each page (see schema.prisma;
-- Prisma 6 cannot declare a partial index, so only this migration names it). On a large table, build it by hand
-- first, without blocking writes, and this migration then finds it:
--   CREATE INDEX CONCURRENTLY "webhook_deliveries_pending_id_idx" ON "webhook_deliveries" ("id")
--     WHERE "status" = 'pending' AND "job_given_up_at" IS NULL;

-- DropIndex
DROP INDEX "webhook_deliveries_status_scheduled_at_idx";

-- CreateIndex
CREATE INDEX IF NOT EXISTS "webhook_deliveries_pending_id_idx" ON "webhook_deliveries" ("id")
  WHERE "status" = 'pending' AND "job_given_up_at" IS NULL;
