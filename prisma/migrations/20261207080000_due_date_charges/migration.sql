-- Due-date charges (DESIGN §13): a charge is `immediate` (every existing one, the standard's `cob`) or `due_date`
-- (`cobv`), whose terms are kept as one JSON document beside it, and whose payment keeps the parts the acquirer
-- reported. Columns with a constant default or none are catalog-only changes (no table rewrite).
-- CreateEnum
CREATE TYPE "transaction_type" AS ENUM ('immediate', 'due_date');

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "due_terms" JSONB,
ADD COLUMN     "payment_components" JSONB,
ADD COLUMN     "type" "transaction_type" NOT NULL DEFAULT 'immediate';
