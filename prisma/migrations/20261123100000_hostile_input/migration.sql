-- Issue 10: inbound bodies kept byte-exact, CPF/CNPJ encrypted at rest with a keyed hash for equality.
-- The encryption itself needs ENCRYPTION_KEY, which SQL does not have: `npm run ops -- documents:encrypt` encrypts
-- the documents of rows written before this migration and fills `sellers.document_hash`.

-- DropIndex
DROP INDEX "sellers_document_key";

-- AlterTable
ALTER TABLE "sellers" ADD COLUMN     "document_hash" TEXT,
ADD COLUMN     "document_masked" TEXT;

-- The masked form of every seller's document (still digits here), as maskTaxDocument writes it.
UPDATE "sellers" SET "document_masked" = CASE length("document")
    WHEN 11 THEN '***.' || substr("document", 4, 3) || '.' || substr("document", 7, 3) || '-**'
    WHEN 14 THEN '**.' || substr("document", 3, 3) || '.' || substr("document", 6, 3) || '/' || substr("document", 9, 4) || '-**'
  END;
ALTER TABLE "sellers" ALTER COLUMN "document_masked" SET NOT NULL;

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "customer_document_masked" TEXT,
ADD COLUMN     "payer_document_masked" TEXT;

-- The masked forms of existing documents (still digits here), as maskTaxDocument writes them.
UPDATE "transactions" SET "customer_document_masked" = CASE length("customer_document")
    WHEN 11 THEN '***.' || substr("customer_document", 4, 3) || '.' || substr("customer_document", 7, 3) || '-**'
    WHEN 14 THEN '**.' || substr("customer_document", 3, 3) || '.' || substr("customer_document", 6, 3) || '/' || substr("customer_document", 9, 4) || '-**'
  END
  WHERE "customer_document" IS NOT NULL;
UPDATE "transactions" SET "payer_document_masked" = CASE length("payer_document")
    WHEN 11 THEN '***.' || substr("payer_document", 4, 3) || '.' || substr("payer_document", 7, 3) || '-**'
    WHEN 14 THEN '**.' || substr("payer_document", 3, 3) || '.' || substr("payer_document", 6, 3) || '/' || substr("payer_document", 9, 4) || '-**'
  END
  WHERE "payer_document" IS NOT NULL;

-- AlterTable: the stored text becomes its UTF-8 bytes (what was received, except bytes already lost to U+FFFD).
ALTER TABLE "inbox_items" ALTER COLUMN "raw_body" TYPE BYTEA USING convert_to("raw_body", 'UTF8');

-- CreateIndex
CREATE UNIQUE INDEX "sellers_document_hash_key" ON "sellers"("document_hash");
