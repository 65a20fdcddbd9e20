-- Pix Automático (DESIGN §14): recurrences, the engine's state of their cycles, and test clocks. A cycle's charge is
-- a transaction of type `recurring`, `scheduled` until sent and `failed` when its debits failed; the new enum values
-- are not used in this migration (PostgreSQL refuses a value added in the same transaction), and the new column of
-- `transactions` has no default: catalog-only changes.
-- CreateEnum
CREATE TYPE "recurrence_status" AS ENUM ('created', 'approved', 'rejected', 'expired', 'canceled');

-- CreateEnum
CREATE TYPE "recurrence_interval" AS ENUM ('weekly', 'monthly', 'quarterly', 'semiannual', 'annual');

-- CreateEnum
CREATE TYPE "recurrence_journey" AS ENUM ('qr', 'qr_with_first_payment', 'push');

-- CreateEnum
CREATE TYPE "recurrence_retry_policy" AS ENUM ('none', 'three_in_seven_days');

-- CreateEnum
CREATE TYPE "recurrence_party" AS ENUM ('payer', 'merchant');

-- CreateEnum
CREATE TYPE "test_clock_status" AS ENUM ('ready', 'advancing');

-- AlterEnum
ALTER TYPE "transaction_type" ADD VALUE 'recurring';

-- AlterEnum
ALTER TYPE "transaction_status" ADD VALUE 'scheduled';
ALTER TYPE "transaction_status" ADD VALUE 'failed';

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "recurrence_id" TEXT;

-- CreateTable
CREATE TABLE "recurrences" (
    "id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "status" "recurrence_status" NOT NULL DEFAULT 'created',
    "contract" TEXT NOT NULL,
    "description" TEXT,
    "customer_name" TEXT NOT NULL,
    "customer_document" TEXT NOT NULL,
    "customer_document_masked" TEXT NOT NULL,
    "payer_account" JSONB,
    "start_date" TEXT NOT NULL,
    "end_date" TEXT,
    "interval" "recurrence_interval" NOT NULL,
    "amount" INTEGER,
    "minimum_amount" INTEGER,
    "retry_policy" "recurrence_retry_policy" NOT NULL,
    "journey" "recurrence_journey" NOT NULL,
    "br_code" TEXT,
    "qr_code_png_base64" TEXT,
    "first_payment_transaction_id" TEXT,
    "postback_url" TEXT,
    "test_clock_id" TEXT,
    "next_cycle" INTEGER NOT NULL DEFAULT 0,
    "next_due_date" TEXT,
    "next_run_at" TIMESTAMPTZ(3),
    "approval_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "canceled_by" "recurrence_party",
    "approved_at" TIMESTAMPTZ(3),
    "rejected_at" TIMESTAMPTZ(3),
    "expired_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recurrences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recurrence_cycles" (
    "transaction_id" TEXT NOT NULL,
    "recurrence_id" TEXT NOT NULL,
    "due_date" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "recurrence_cycles_pkey" PRIMARY KEY ("transaction_id")
);

-- CreateTable
CREATE TABLE "test_clocks" (
    "id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "frozen_time" TIMESTAMPTZ(3) NOT NULL,
    "status" "test_clock_status" NOT NULL DEFAULT 'ready',
    "advancing_to" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "test_clocks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "recurrences_store_id_mode_id_idx" ON "recurrences"("store_id", "mode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "recurrence_cycles_recurrence_id_due_date_key" ON "recurrence_cycles"("recurrence_id", "due_date");

-- CreateIndex
CREATE INDEX "test_clocks_store_id_id_idx" ON "test_clocks"("store_id", "id");

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_recurrence_id_fkey" FOREIGN KEY ("recurrence_id") REFERENCES "recurrences"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recurrences" ADD CONSTRAINT "recurrences_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recurrences" ADD CONSTRAINT "recurrences_test_clock_id_fkey" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recurrence_cycles" ADD CONSTRAINT "recurrence_cycles_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recurrence_cycles" ADD CONSTRAINT "recurrence_cycles_recurrence_id_fkey" FOREIGN KEY ("recurrence_id") REFERENCES "recurrences"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_clocks" ADD CONSTRAINT "test_clocks_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The engine's sweep reads only the recurrences it has something to do for, on real time, soonest first; a clock's
-- advance reads only its own. Recurrences with nothing left to do (ended, rejected, canceled) stay out of both.
CREATE INDEX "recurrences_due_idx" ON "recurrences" ("next_run_at")
  WHERE "next_run_at" IS NOT NULL AND "test_clock_id" IS NULL;
CREATE INDEX "recurrences_clock_due_idx" ON "recurrences" ("test_clock_id", "next_run_at")
  WHERE "next_run_at" IS NOT NULL AND "test_clock_id" IS NOT NULL;

-- A recurrence's cycles the engine still acts on (to send, to debit), and nothing of those settled for good.
CREATE INDEX "recurrence_cycles_open_idx" ON "recurrence_cycles" ("recurrence_id") WHERE "next_attempt_at" IS NOT NULL;

-- The clocks whose advance has not finished, for the reconciler (a lost job).
CREATE INDEX "test_clocks_advancing_idx" ON "test_clocks" ("id") WHERE "status" = 'advancing';

-- A recurrence's charges, and nothing else (see schema.prisma). On a large table, build it by hand first, without
-- blocking writes, and this migration then finds it:
--   CREATE INDEX CONCURRENTLY "transactions_recurrence_id_idx" ON "transactions" ("recurrence_id")
--     WHERE "recurrence_id" IS NOT NULL;
CREATE INDEX IF NOT EXISTS "transactions_recurrence_id_idx" ON "transactions" ("recurrence_id")
  WHERE "recurrence_id" IS NOT NULL;
