import type { Transaction } from "@lm/db";
import { serializeTransaction, storedChargeId, withChargeFields, withoutChargeFields } from "@lm/wire";

const created = new Date("2026-11-27T02:00:00.000Z");
const charge: Transaction = {
  id: "txn_01KMZ2W3Q8J4V8X3Y0N6P2R5T7",
  store_id: "sto_01KMZ2W3Q8J4V8X3Y0N6P2R5T7",
  mode: "test",
  status: "pending",
  type: "immediate",
  amount: 1990,
  currency: "BRL",
  description: "Pedido 4512",
  external_id: "order-4512",
  txid: "01KMZ2W3Q8J4V8X3Y0N6P2R5T7abc",
  br_code: "00020101021226900014br.gov.bcb.pix",
  qr_code_png_base64: "iVBORw0KGgo=",
  customer_name: "Maria da Silva",
  customer_document: "v1.ciphertext",
  customer_document_masked: "***.982.247-**",
  customer_email: "maria@example.com",
  postback_url: "https://example.com/postback",
  metadata: { order_id: "4512" },
  expires_in: 3600,
  expires_at: new Date(created.getTime() + 3_600_000),
  paid_at: null,
  expired_at: null,
  canceled_at: null,
  failure_reason: null,
  payment_end_to_end_id: null,
  payment_amount: null,
  payer_name: null,
  payer_document: null,
  payer_document_masked: null,
  amount_refunded: 0,
  acquirer_id: null,
  amount_disputed: 0,
  due_terms: null,
  payment_components: null,
  qr_code_id: null,
  recurrence_id: null,
  created_at: created,
  updated_at: created,
};
const paidAt = new Date(created.getTime() + 60_000);
const paid: Transaction = {
  ...charge,
  status: "paid",
  paid_at: paidAt,
  payment_end_to_end_id: "E1234567820261127020100abcdefghijk",
  payment_amount: 1990,
  payer_name: "Joao Pagador",
  payer_document_masked: "***.456.789-**",
  updated_at: paidAt,
};

describe("a charge's object stored without the fields the charge keeps for good", () => {
  test("when a created charge's object is stored and read back after the charge was paid, then it is the object as created, in the same key order, byte for byte", () => {
    const sent = JSON.stringify(serializeTransaction(charge, created));

    const stored = JSON.stringify(withoutChargeFields(JSON.parse(sent) as object));
    const read = JSON.stringify(withChargeFields(JSON.parse(stored) as object, paid));

    expect(read).toBe(sent);
    expect(JSON.parse(read)).toMatchObject({ status: "pending", paid_at: null, payment: null });
    expect(stored.length).toBeLessThan(sent.length / 2);
  });

  test("when an object stored before amount_due existed is read back, then it shows amount_due null", () => {
    const { amount_due: _dropped, ...older } = withoutChargeFields(serializeTransaction(paid, paidAt));

    const read = withChargeFields(older, paid) as Record<string, unknown>;

    expect(read.amount_due).toBeNull();
    expect(Object.keys(read)).toEqual(Object.keys(serializeTransaction(paid, paidAt)));
  });

  test("when a paid charge's object is stored, then it keeps what changes (status, payment, refunds, deadline, times) and none of the terms, BR Code, QR image or customer", () => {
    const stored = withoutChargeFields(serializeTransaction(paid, paidAt));

    expect(Object.keys(stored)).toEqual([
      "id",
      "object",
      "status",
      "amount_refunded",
      "amount_disputed",
      "expires_at",
      "paid_at",
      "expired_at",
      "canceled_at",
      "failure_reason",
      "payment",
      "amount_due",
      "updated_at",
    ]);
    expect(storedChargeId(stored)).toBe(charge.id);
  });

  test("when an object was stored whole (before the fixed fields were left out), then it reads the same", () => {
    const whole = serializeTransaction(charge, created);

    expect(JSON.stringify(withChargeFields(whole, paid))).toBe(JSON.stringify(whole));
  });

  test("when the object is another resource or the charge is not found, then it is returned as is", () => {
    const refund = { id: "rfd_01KMZ2W3Q8J4V8X3Y0N6P2R5T7", object: "refund", amount: 100 };
    const stored = withoutChargeFields(serializeTransaction(charge, created));

    expect(withoutChargeFields(refund)).toEqual(refund);
    expect(withChargeFields(refund, charge)).toBe(refund);
    expect(withChargeFields(stored, undefined)).toBe(stored);
    expect(storedChargeId(refund)).toBeNull();
  });
});
