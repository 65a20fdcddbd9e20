-- Batches of due-date charges (DESIGN §13 "Batches", the standard's `lotecobv`): a batch and its items are written
-- before its job is enqueued (DESIGN §1), each item with the id and txid its charge will have, so that a run of the job
-- that repeats a creation after a crash meets the charge already made instead of making a second one.

-- CreateEnum
CREATE TYPE "transaction_batch_status" AS ENUM ('processing', 'completed');

-- CreateEnum
CREATE TYPE "transaction_batch_item_status" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateTable: `number` is the batch's integer id for a bank's `PUT /lotecobv/{id}`, an identity column that nothing
-- but PostgreSQL writes (Prisma reads it as `@default(autoincrement())`).
CREATE TABLE "transaction_batches" (
    "id" TEXT NOT NULL,
    "number" BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY,
    "store_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "status" "transaction_batch_status" NOT NULL DEFAULT 'processing',
    "total" INTEGER NOT NULL,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "transaction_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transaction_batch_items" (
    "batch_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "status" "transaction_batch_item_status" NOT NULL,
    "request" JSONB,
    "transaction_id" TEXT,
    "txid" TEXT,
    "error" JSONB,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "transaction_batch_items_pkey" PRIMARY KEY ("batch_id","index")
);

-- CreateIndex
CREATE UNIQUE INDEX "transaction_batches_number_key" ON "transaction_batches"("number");

-- CreateIndex
CREATE INDEX "transaction_batches_store_id_mode_id_idx" ON "transaction_batches"("store_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "transaction_batch_items_transaction_id_key" ON "transaction_batch_items"("transaction_id");

-- CreateIndex
CREATE UNIQUE INDEX "transaction_batch_items_txid_key" ON "transaction_batch_items"("txid");

-- AddForeignKey
ALTER TABLE "transaction_batches" ADD CONSTRAINT "transaction_batches_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction_batch_items" ADD CONSTRAINT "transaction_batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "transaction_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The reconciler offers again the batches still processing whose job was lost (a partial index, which Prisma 6 can
-- neither declare nor introspect: schema.prisma's comment names it).
CREATE INDEX IF NOT EXISTS "transaction_batches_processing_idx" ON "transaction_batches" ("id")
  WHERE "status" = 'processing';
