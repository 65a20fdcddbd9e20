-- No silent endings (DESIGN §16): a delivery that ends without a retry (`blocked_destination`, `endpoint_disabled`,
-- `missing_secret`, `paused_too_long`) is logged, and the first such ending of an endpoint in a day writes a feed item
-- for its owners; the endpoint keeps when that last happened. Catalog-only (a nullable column without a default).

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "stop_noticed_at" TIMESTAMPTZ(3);
