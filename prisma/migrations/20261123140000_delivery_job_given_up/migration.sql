-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "job_error" TEXT,
ADD COLUMN     "job_given_up_at" TIMESTAMPTZ(3);

