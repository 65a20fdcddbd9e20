-- Pix Automático through a bank (DESIGN §14 "Live"): a live recurrence keeps the bank that holds it and its id there
-- (the standard's idRec), unique per bank, so a bank's callback names one recurrence; an acquirer keeps the receiving
-- account its cycle charges (cobr) name. Nullable columns without defaults: catalog-only changes.
-- AlterTable
ALTER TABLE "recurrences" ADD COLUMN     "acquirer_id" TEXT,
ADD COLUMN     "bank_recurrence_id" TEXT;

-- AlterTable
ALTER TABLE "acquirers" ADD COLUMN     "account_branch" TEXT,
ADD COLUMN     "account_number" TEXT,
ADD COLUMN     "account_type" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "recurrences_acquirer_id_bank_recurrence_id_key" ON "recurrences"("acquirer_id", "bank_recurrence_id");

