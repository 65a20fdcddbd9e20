-- AlterTable
ALTER TABLE "users" ADD COLUMN     "two_factor_disabled_at" TIMESTAMPTZ(3);

