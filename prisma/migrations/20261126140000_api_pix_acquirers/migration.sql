-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "acquirer_id" TEXT;

-- AlterTable
ALTER TABLE "acquirers" ADD COLUMN     "api_url" TEXT,
ADD COLUMN     "client_id" TEXT,
ADD COLUMN     "credentials_ciphertext" TEXT,
ADD COLUMN     "mode" "mode",
ADD COLUMN     "pix_key" TEXT,
ADD COLUMN     "profile" TEXT,
ADD COLUMN     "reconciled_until" TIMESTAMPTZ(3),
ADD COLUMN     "token_url" TEXT,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "inbox_items" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'notification';

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "acquirer_id" TEXT;

-- CreateTable
CREATE TABLE "active_acquirers" (
    "mode" "mode" NOT NULL,
    "acquirer_id" TEXT NOT NULL,
    "activated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "active_acquirers_pkey" PRIMARY KEY ("mode")
);

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_acquirer_id_fkey" FOREIGN KEY ("acquirer_id") REFERENCES "acquirers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "active_acquirers" ADD CONSTRAINT "active_acquirers_acquirer_id_fkey" FOREIGN KEY ("acquirer_id") REFERENCES "acquirers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_acquirer_id_fkey" FOREIGN KEY ("acquirer_id") REFERENCES "acquirers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

