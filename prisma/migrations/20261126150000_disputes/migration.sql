-- AlterEnum
ALTER TYPE "balance_transaction_type" ADD VALUE 'dispute';

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "amount_disputed" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "disputes" (
    "id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "amount" INTEGER NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'lost',
    "end_to_end_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "disputes_end_to_end_id_key" ON "disputes"("end_to_end_id");

-- CreateIndex
CREATE INDEX "disputes_store_id_mode_id_idx" ON "disputes"("store_id", "mode", "id");

-- CreateIndex
CREATE INDEX "disputes_seller_id_mode_id_idx" ON "disputes"("seller_id", "mode", "id");

-- AddForeignKey
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- A dispute is the one debit that may overdraw (DESIGN §11: the bank has already taken the money): `available` may
-- still never go down below zero, except in a transaction that set `lm.ledger_overdraft` to `dispute` (the ledger's
-- dispute entry, and nothing else, sets it, for its own transaction only). A payment or a reversal that raises a
-- negative `available` passes; `reserved` is never negative. Bodies' semicolons are written \073 (see the ledger's
-- first migration).
CREATE OR REPLACE FUNCTION "balances_not_negative"() RETURNS trigger LANGUAGE plpgsql
    AS E'BEGIN IF NEW.reserved < 0 OR (NEW.available < 0 AND NEW.available < COALESCE(OLD.available, 0) AND current_setting(''lm.ledger_overdraft'', true) IS DISTINCT FROM ''dispute'') THEN RAISE EXCEPTION ''balance would go negative'' USING ERRCODE = ''check_violation''\073 END IF\073 RETURN NEW\073 END';
