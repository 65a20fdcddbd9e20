-- Sweeps cost the same per tick whatever the history (DESIGN §10 "Sweeps"): each reads only its due rows, through an
-- index built for it. The partial indexes below cannot be declared in schema.prisma (Prisma 6 can neither declare nor
-- introspect a partial index); its comments name them. On a large table, build each by hand first, without blocking
-- writes (CREATE INDEX CONCURRENTLY with the same name and definition), and this migration then finds it.

-- The reconciler's sweep of due deliveries pages the pending rows whose time has come, by (scheduled_at, id): a retry
-- that waits for its time is never read. Replaces (id) with the same predicate, through which every pending row was
-- read on each sweep, due or not.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_pending_due_idx" ON "webhook_deliveries" ("scheduled_at", "id")
  WHERE "status" = 'pending' AND "job_given_up_at" IS NULL;

DROP INDEX IF EXISTS "webhook_deliveries_pending_id_idx";

-- The reconciler's sweep of the inbox reads the items processing can still settle (`PROCESSABLE` in
-- inbox.repository.ts, written out the same here): duplicates, badly signed and refuted items, which never get a
-- `processed_at`, are not in it.
CREATE INDEX IF NOT EXISTS "inbox_items_processable_id_idx" ON "inbox_items" ("id")
  WHERE "signature_valid" AND "processed_at" IS NULL
    AND ("error" IS NULL OR starts_with("error", 'processing_failed:'));

-- The ledger's drift check sums a balance's open refunds and withdrawals: only the pending and processing ones.
CREATE INDEX IF NOT EXISTS "refunds_open_seller_idx" ON "refunds" ("seller_id", "mode")
  WHERE "status" IN ('pending', 'processing');

CREATE INDEX IF NOT EXISTS "withdrawals_open_seller_idx" ON "withdrawals" ("seller_id", "mode")
  WHERE "status" IN ('pending', 'processing');

-- CreateIndex: the ledger's drift check reads the balances changed recently.
CREATE INDEX IF NOT EXISTS "balances_updated_at_idx" ON "balances"("updated_at");

-- CreateTable: what the drift check has summed of each balance's entries, so that it sums only newer ones.
CREATE TABLE "ledger_checkpoints" (
    "seller_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "entry_id" TEXT NOT NULL,
    "entries_sum" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_checkpoints_pkey" PRIMARY KEY ("seller_id","mode")
);

-- CreateTable: an endpoint's recovery, paged by the worker (DESIGN §8 "Recover").
CREATE TABLE "webhook_recoveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "event_types" TEXT[],
    "max_events" INTEGER NOT NULL,
    "cursor_created_at" TIMESTAMPTZ(3),
    "cursor_event_id" TEXT,
    "events" INTEGER NOT NULL DEFAULT 0,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_recoveries_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "webhook_recoveries" ADD CONSTRAINT "webhook_recoveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The reconciler resumes the recoveries still running whose job was lost.
CREATE INDEX IF NOT EXISTS "webhook_recoveries_running_idx" ON "webhook_recoveries" ("id") WHERE "completed_at" IS NULL;
