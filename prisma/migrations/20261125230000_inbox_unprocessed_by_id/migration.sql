-- The partial index of the inbox items still to process now holds their ids, not their `received_at`. Statements that
-- name an item by id and require it unprocessed (settling a batch, recording a failure or a given-up job) imply the
-- index's predicate, and while the statistics counted few unprocessed items the planner read them through
-- `(received_at) WHERE processed_at IS NULL`, filtering on the id: every item of a backlog for each statement. With
-- the id as the key, the same choice reads the named rows only; the reconciler's sweep takes the oldest items in id
-- order (ids are ULIDs, made when the item is stored). See schema.prisma; Prisma 6 cannot declare a partial index, so
-- only this migration names it. On a large table, build it by hand first, without blocking writes, and this migration
-- then finds it:
--   CREATE INDEX CONCURRENTLY "inbox_items_unprocessed_id_idx" ON "inbox_items" ("id") WHERE "processed_at" IS NULL;

-- CreateIndex
CREATE INDEX IF NOT EXISTS "inbox_items_unprocessed_id_idx" ON "inbox_items" ("id") WHERE "processed_at" IS NULL;

-- DropIndex
DROP INDEX IF EXISTS "inbox_items_unprocessed_idx";
