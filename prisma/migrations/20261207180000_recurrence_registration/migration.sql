-- A live recurrence is written before the bank is asked (DESIGN §1, §14 "Live"): `registering` until the bank holds it,
-- the creation's key (HMAC of its Idempotency-Key) to find it on a retry, and the location (locrec) it names. A default
-- on a new column and nullable columns: catalog-only changes; the unique index covers only rows with a key.
-- AlterTable
ALTER TABLE "recurrences" ADD COLUMN     "registering" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "registration_key" TEXT,
ADD COLUMN     "bank_location_id" INTEGER;

-- The reconciler withdraws creations abandoned while registering (no retry can resume them once their key expired):
-- only those rows are in this index.
CREATE INDEX "recurrences_registering_idx" ON "recurrences" ("acquirer_id", "created_at") WHERE "registering";

-- CreateIndex
CREATE UNIQUE INDEX "recurrences_store_id_mode_registration_key_key" ON "recurrences"("store_id", "mode", "registration_key");

-- The reconciler's read-back of live recurrences awaiting the payer and of open cycles (DESIGN §9: a lost callback is
-- caught): when each was last checked, and partial indexes holding only those candidates, least recently checked
-- first, so a sweep never reads history.
ALTER TABLE "recurrences" ADD COLUMN     "bank_checked_at" TIMESTAMPTZ(3);
ALTER TABLE "recurrence_cycles" ADD COLUMN     "bank_checked_at" TIMESTAMPTZ(3);
CREATE INDEX "recurrences_bank_check_idx" ON "recurrences" ("acquirer_id", "bank_checked_at" NULLS FIRST, "id")
  WHERE "status" = 'created' AND "bank_recurrence_id" IS NOT NULL AND NOT "registering";
CREATE INDEX "recurrence_cycles_bank_check_idx" ON "recurrence_cycles" ("bank_checked_at" NULLS FIRST, "transaction_id")
  WHERE "next_attempt_at" IS NOT NULL;

-- Why a recurrence's cycle charge failed: every debit failed, or its bank refused to register it (nullable:
-- catalog-only).
ALTER TABLE "transactions" ADD COLUMN     "failure_reason" TEXT;
