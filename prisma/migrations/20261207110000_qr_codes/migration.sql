-- Reusable QR codes (DESIGN §13, static Pix): one BR Code paid any number of times, each payment a charge of its own,
-- born `paid`, of type `qr_code`, that names its code. The new enum value is not used in this migration (PostgreSQL
-- refuses a value added in the same transaction), and the new column has no default: catalog-only changes.
-- AlterEnum
ALTER TYPE "transaction_type" ADD VALUE 'qr_code';

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "qr_code_id" TEXT;

-- CreateTable
CREATE TABLE "qr_codes" (
    "id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "amount" INTEGER,
    "description" TEXT,
    "external_id" TEXT,
    "txid" TEXT NOT NULL,
    "br_code" TEXT NOT NULL,
    "qr_code_png_base64" TEXT NOT NULL,
    "acquirer_id" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "payments_count" INTEGER NOT NULL DEFAULT 0,
    "amount_received" BIGINT NOT NULL DEFAULT 0,
    "deactivated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "qr_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "qr_codes_txid_key" ON "qr_codes"("txid");

-- CreateIndex
CREATE INDEX "qr_codes_store_id_mode_created_at_idx" ON "qr_codes"("store_id", "mode", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "qr_codes_store_id_mode_external_id_key" ON "qr_codes"("store_id", "mode", "external_id");

-- A code's charges, and nothing else: every charge created before this migration, and every charge that is not a QR
-- code's payment, stays out of it (see schema.prisma). On a large table, build it by hand first, without blocking
-- writes, and this migration then finds it:
--   CREATE INDEX CONCURRENTLY "transactions_qr_code_id_idx" ON "transactions" ("qr_code_id")
--     WHERE "qr_code_id" IS NOT NULL;
CREATE INDEX IF NOT EXISTS "transactions_qr_code_id_idx" ON "transactions" ("qr_code_id")
  WHERE "qr_code_id" IS NOT NULL;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_acquirer_id_fkey" FOREIGN KEY ("acquirer_id") REFERENCES "acquirers"("id") ON DELETE SET NULL ON UPDATE CASCADE;
