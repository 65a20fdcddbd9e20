-- The reconciler's sweep reads the inbox items still to process, oldest first: a partial index of exactly those
-- replaces (received_at), through which each sweep read every processed item (see schema.prisma; Prisma 6 cannot
-- declare a partial index, so only this migration names it). On a large table, build it by hand first, without
-- blocking writes, and this migration then finds it:
--   CREATE INDEX CONCURRENTLY "inbox_items_unprocessed_idx" ON "inbox_items" ("received_at")
--     WHERE "processed_at" IS NULL;

-- DropIndex
DROP INDEX "inbox_items_received_at_idx";

-- CreateIndex
CREATE INDEX IF NOT EXISTS "inbox_items_unprocessed_idx" ON "inbox_items" ("received_at") WHERE "processed_at" IS NULL;
