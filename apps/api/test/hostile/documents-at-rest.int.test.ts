/**
 * Full CPF/CNPJ are encrypted at rest (sellers, charges' customers and payers), with a keyed hash
 * where equality is needed; replies keep showing the masked form.
 */
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import {
  createSeller,
  decryptDocument,
  documentLookupHash,
  encryptClearDocuments,
  maskTaxDocument,
  newId,
  processInboxItem,
  readSellerDocument,
} from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";

describe("documents at rest", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when a seller is created, then its row holds neither the digits nor a plain hash, and the domain reads it back", async () => {
    const cpf = generateCpf();

    const { seller } = await createSeller(ctx.deps.repos, ctx.config, { name: "Loja Cifrada", document: cpf });

    const row = await ctx.db.seller.findUniqueOrThrow({ where: { id: seller.id } });
    expect(row.document).not.toContain(cpf.slice(3, 9));
    expect(row.document_hash).toBe(documentLookupHash(ctx.config.encryptionKey, cpf));
    expect(row.document_hash).not.toContain(cpf);
    expect(readSellerDocument(ctx.config.encryptionKey, row)).toEqual({ kind: "cpf", digits: cpf });
  });

  test("when a second seller has the same document, then invalid_state (the keyed hash is unique)", async () => {
    const cpf = generateCpf();
    await createSeller(ctx.deps.repos, ctx.config, { name: "Primeira", document: cpf });

    await expect(createSeller(ctx.deps.repos, ctx.config, { name: "Segunda", document: cpf })).rejects.toMatchObject({
      code: "invalid_state",
    });
  });

  test("when a seller's envelope is copied to another seller, then it does not decrypt there", async () => {
    const a = (await createSeller(ctx.deps.repos, ctx.config, { name: "A", document: generateCpf() })).seller;
    const b = (await createSeller(ctx.deps.repos, ctx.config, { name: "B", document: generateCpf() })).seller;

    expect(() => readSellerDocument(ctx.config.encryptionKey, { id: b.id, document: a.document })).toThrow();
  });

  test("when a charge is created with a customer and paid, then both documents are stored encrypted and replied masked", async () => {
    const created = await merchant.client.post("/v1/transactions", chargeBody()).expect(201);
    await merchant.client.post(`/v1/transactions/${created.body.id}/simulate-payment`).expect(202);
    const item = await ctx.db.inboxItem.findFirstOrThrow({
      where: { end_to_end_id: { not: null } },
      orderBy: { id: "desc" },
    });
    await processInboxItem(ctx.deps, item.id);

    const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: created.body.id } });
    const read = await merchant.client.get(`/v1/transactions/${created.body.id}`).expect(200);
    const key = ctx.config.encryptionKey;
    expect([row.customer_document, row.payer_document].join(" ")).not.toMatch(/982247/);
    expect(decryptDocument(key, row.customer_document!, `${row.id}:customer_document`)).toBe("52998224725");
    expect(decryptDocument(key, row.payer_document!, `${row.id}:payer_document`)).toBe("52998224725");
    expect(read.body.customer.document_masked).toBe("***.982.247-**");
    expect(read.body.payment.payer.document_masked).toBe("***.982.247-**");
  });

  test("when rows were written in clear before encryption, then documents:encrypt encrypts them once and replies stay the same", async () => {
    const cpf = generateCpf();
    const sellerId = newId("seller");
    await ctx.db.seller.create({
      data: { id: sellerId, legal_name: "Antiga", document: cpf, document_masked: maskTaxDocument(cpf) },
    });
    const created = await merchant.client.post("/v1/transactions", chargeBody()).expect(201);
    await ctx.db.transaction.update({ where: { id: created.body.id }, data: { customer_document: "52998224725" } });

    const first = await encryptClearDocuments(ctx.deps.repos, ctx.config);
    const second = await encryptClearDocuments(ctx.deps.repos, ctx.config);

    expect(first).toMatchObject({ sellers: 1, customerDocuments: 1 });
    expect(second).toEqual({ sellers: 0, customerDocuments: 0, payerDocuments: 0 });
    const seller = await ctx.db.seller.findUniqueOrThrow({ where: { id: sellerId } });
    expect(readSellerDocument(ctx.config.encryptionKey, seller).digits).toBe(cpf);
    expect(seller.document_hash).toBe(documentLookupHash(ctx.config.encryptionKey, cpf));
    const charge = await ctx.db.transaction.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(charge.customer_document).toMatch(/^v1\./);
    expect((await merchant.client.get(`/v1/transactions/${created.body.id}`)).body.customer.document_masked).toBe(
      "***.982.247-**",
    );
  });
});
