-- CreateEnum
CREATE TYPE "payout_key_type" AS ENUM ('cpf', 'cnpj', 'email', 'phone', 'evp');

-- CreateEnum
CREATE TYPE "withdrawal_status" AS ENUM ('pending', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "payout_keys" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "type" "payout_key_type" NOT NULL,
    "key" TEXT,
    "key_masked" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" TEXT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "mode" "mode" NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'BRL',
    "status" "withdrawal_status" NOT NULL DEFAULT 'pending',
    "payout_key_id" TEXT NOT NULL,
    "end_to_end_id" TEXT,
    "failure_reason" TEXT,
    "submit_attempts" INTEGER NOT NULL DEFAULT 0,
    "submit_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payout_keys_seller_id_idx" ON "payout_keys"("seller_id");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_end_to_end_id_key" ON "withdrawals"("end_to_end_id");

-- CreateIndex
CREATE INDEX "withdrawals_seller_id_mode_id_idx" ON "withdrawals"("seller_id", "mode", "id");

-- CreateIndex
CREATE INDEX "withdrawals_status_updated_at_idx" ON "withdrawals"("status", "updated_at");

-- AddForeignKey
ALTER TABLE "payout_keys" ADD CONSTRAINT "payout_keys_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "sellers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_payout_key_id_fkey" FOREIGN KEY ("payout_key_id") REFERENCES "payout_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

