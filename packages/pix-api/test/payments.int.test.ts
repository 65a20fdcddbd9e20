import { type BankEmulator } from "@lm/bank-emulator";
import { waitUntil } from "@lm/testing";
import { PixApiError, centavosFromValor, type Pix, type PixApiClient } from "../src";
import { newId, newTxid, useBank } from "./support/bank";

describe("payments, devoluções and the webhook at an emulated bank", () => {
  let bank: BankEmulator;
  let client: PixApiClient;

  /** Registers a charge of `amount` centavos and has the emulated payer's bank pay it. */
  async function receivePayment(amount: number, payer?: { name: string; cpf: string }) {
    const txid = newTxid();
    await client.registerCharge({ txid, amount, expiresIn: 600 });
    const { endToEndId } = await bank.payCharge(txid, { callback: "drop", ...(payer ? { payer } : {}) });
    return { txid, endToEndId };
  }

  const held = useBank();
  beforeAll(() => {
    ({ bank, client } = held);
  });

  test("when a received payment is read, then the bank's Pix with its txid, amount and payer", async () => {
    const { txid, endToEndId } = await receivePayment(1999, { name: "Beltrana", cpf: "12345678909" });

    const pix = await client.getPayment(endToEndId);

    expect(pix).toMatchObject({ endToEndId, txid, valor: "19.99", chave: bank.pixKey });
    expect(pix?.pagador).toMatchObject({ nome: "Beltrana", cpf: "12345678909" });
    expect(new Date(pix?.horario ?? "").getTime()).not.toBeNaN();
  });

  test("when an unknown end-to-end id is read, then null", async () => {
    expect(await client.getPayment("E99990001202401010000AAAAAAAAAAA")).toBeNull();
  });

  test("when payments are listed over more than two pages, then every payment in the range, once, in order", async () => {
    const from = new Date();
    const received: string[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      const payments = await Promise.all(Array.from({ length: 45 }, (_, i) => receivePayment(100 + batch * 45 + i)));
      received.push(...payments.map((payment) => payment.endToEndId));
    }
    const to = new Date();

    const listed: Pix[] = [];
    for await (const pix of client.listPayments({ from, to })) listed.push(pix);

    expect(listed).toHaveLength(225);
    expect(new Set(listed.map((pix) => pix.endToEndId))).toEqual(new Set(received));
    const times = listed.map((pix) => new Date(pix.horario).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const pages = bank.requests().filter((request) => request.method === "GET" && request.path.startsWith("/v2/pix?"));
    expect(pages.length).toBeGreaterThanOrEqual(3);
  });

  test("when no payment falls in the range, then the listing is empty", async () => {
    const listed: Pix[] = [];
    const range = { from: new Date("2001-01-01T00:00:00Z"), to: new Date("2001-01-02T00:00:00Z") };
    for await (const pix of client.listPayments(range)) listed.push(pix);

    expect(listed).toEqual([]);
  });

  test("when a devolução is asked for, then EM_PROCESSAMENTO, then DEVOLVIDO once the bank settles it", async () => {
    const { endToEndId } = await receivePayment(5000);
    const id = newId("D");

    const refund = await client.refundPix({ endToEndId, id, amount: 1250, description: "Troca" });

    expect(refund).toMatchObject({ id, valor: "12.50", status: "EM_PROCESSAMENTO" });
    expect(refund.rtrId).toMatch(/^[a-zA-Z0-9]{32}$/);
    const settled = await waitUntil("the devolução to settle", async () => {
      const current = await client.getRefund(endToEndId, id);
      return current?.status === "DEVOLVIDO" ? current : null;
    });
    expect(settled.horario.liquidacao).toEqual(expect.any(String));
    const pix = await client.getPayment(endToEndId);
    expect(pix?.devolucoes).toEqual([expect.objectContaining({ id, status: "DEVOLVIDO" })]);
  });

  test("when the same devolução id is sent twice, then one devolução", async () => {
    const { endToEndId } = await receivePayment(3000);
    const id = newId("D");

    const first = await client.refundPix({ endToEndId, id, amount: 1000 });
    const second = await client.refundPix({ endToEndId, id, amount: 1000 });

    expect(second.rtrId).toBe(first.rtrId);
    expect((await client.getPayment(endToEndId))?.devolucoes).toHaveLength(1);
  });

  test("when the devoluções would exceed the payment, then rejected with the bank's reason", async () => {
    const { endToEndId } = await receivePayment(1000);
    await client.refundPix({ endToEndId, id: newId("D"), amount: 600 });

    const error = await client
      .refundPix({ endToEndId, id: newId("D"), amount: 401 })
      .catch((err: unknown) => err as PixApiError);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "rejected", status: 400 });
    expect((error as PixApiError).reason).toMatch(/exceed/);
  });

  test("when a devolução the bank does not make is read, then NAO_REALIZADO with the bank's motivo", async () => {
    const { endToEndId } = await receivePayment(5000);
    const id = newId("D");
    await client.refundPix({ endToEndId, id, amount: 113 });

    const failed = await waitUntil("the devolução to fail", async () => {
      const current = await client.getRefund(endToEndId, id);
      return current?.status === "NAO_REALIZADO" ? current : null;
    });

    expect(failed.motivo).toEqual(expect.any(String));
  });

  test("when an unknown devolução is read, then null", async () => {
    const { endToEndId } = await receivePayment(100);

    expect(await client.getRefund(endToEndId, newId("D"))).toBeNull();
  });

  test("when a devolução of a MED is read on the payment, then it is there with natureza and amount", async () => {
    const { endToEndId } = await receivePayment(2000);
    const med = await bank.med(endToEndId, 700, { callback: "drop" });

    const pix = await client.getPayment(endToEndId);

    const devolucao = pix?.devolucoes?.find((item) => item.id === med.id);
    expect(devolucao).toMatchObject({ rtrId: med.rtrId, status: "DEVOLVIDO", natureza: "ORIGINAL" });
    expect(centavosFromValor(devolucao?.valor)).toBe(700);
  });

  test("when no webhook is registered, then it reads as null; once registered, then its URL", async () => {
    expect(await client.getWebhook()).toBeNull();

    await client.registerWebhook("https://merchant.example.com/v1/acquirers/bank/notifications");

    expect(await client.getWebhook()).toEqual({
      webhookUrl: "https://merchant.example.com/v1/acquirers/bank/notifications",
    });
    expect(bank.webhookUrl()).toBe("https://merchant.example.com/v1/acquirers/bank/notifications");
  });

  test("when the profile is bcb, then payouts are refused before anything is sent", async () => {
    const before = bank.requests().length;

    await expect(client.sendPixPayment({ idEnvio: newId("W"), amount: 100, payeeKey: "a@b.com" })).rejects.toEqual(
      expect.objectContaining({ kind: "rejected", status: null, reason: "payouts_unsupported" }),
    );
    await expect(client.getPayout(newId("W"))).rejects.toMatchObject({ reason: "payouts_unsupported" });
    expect(bank.requests()).toHaveLength(before);
  });
});
