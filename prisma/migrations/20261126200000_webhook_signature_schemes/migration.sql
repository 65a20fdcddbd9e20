-- Signature schemes (DESIGN §12): an endpoint signs with `stripe` (X-Signature, the default and every existing
-- endpoint) or `standard_webhooks`. A column with a constant default is a catalog-only change (no table rewrite).
-- CreateEnum
CREATE TYPE "signature_scheme" AS ENUM ('stripe', 'standard_webhooks');

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "signature_scheme" "signature_scheme" NOT NULL DEFAULT 'stripe';

