-- A live recurrence is written before the bank is asked (DESIGN §1, §14 "Live"): `registering` until the bank holds it,
-- the creation's key (HMAC of its Idempotency-Key) to find it on a retry, and the location (locrec) it names. A default
-- on a new column and nullable columns: catalog-only changes; the unique index covers only rows with a key.
-- AlterTable
ALTER TABLE "recurrences" ADD COLUMN     "registering" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "registration_key" TEXT,
ADD COLUMN     "bank_location_id" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "recurrences_store_id_mode_registration_key_key" ON "recurrences"("store_id", "mode", "registration_key");
