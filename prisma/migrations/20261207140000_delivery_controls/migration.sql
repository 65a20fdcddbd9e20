-- Delivery controls per endpoint (DESIGN §16): FIFO ordering, a rate limit in attempts per second, pause, custom
-- headers (encrypted like the secret) and Standard Webhooks' asymmetric scheme, whose endpoints show their Ed25519
-- public key. Columns with constant defaults or none are catalog-only changes (no table rewrite); an endpoint without
-- controls reads as before.

-- CreateEnum
CREATE TYPE "delivery_ordering" AS ENUM ('none', 'fifo');

-- AlterEnum
ALTER TYPE "signature_scheme" ADD VALUE 'standard_webhooks_ed25519';

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "headers_ciphertext" TEXT,
ADD COLUMN     "ordering" "delivery_ordering" NOT NULL DEFAULT 'none',
ADD COLUMN     "paused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "public_key" TEXT,
ADD COLUMN     "rate_limit" INTEGER;

