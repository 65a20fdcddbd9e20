/**
 * Money going back and out: devoluções (`/pix/{e2eid}/devolucao/{id}`), unrequested devoluções (MED), Efí's payouts
 * (`/v3/gn/pix/{idEnvio}`), each settled after the delay with a callback, and a forged callback.
 */
import { startWebhookReceiver, waitUntil, type WebhookReceiver } from "@lm/testing";
import { startBankEmulator, type BankEmulator } from "../src";
import { callerOf, cobBody, newId, newTxid, type BankCaller } from "./support/bank-requests";

let bank: BankEmulator;
let receiver: WebhookReceiver;
let caller: BankCaller;

beforeAll(async () => {
  [bank, receiver] = await Promise.all([startBankEmulator({ settleDelayMs: 20 }), startWebhookReceiver()]);
  caller = await callerOf(bank);
  await caller.call("PUT", `/webhook/${bank.pixKey}`, { webhookUrl: `${receiver.url}/bank` });
});

afterAll(async () => {
  expect(bank.violations()).toEqual([]);
  await Promise.all([bank.close(), receiver.close()]);
});

/** A charge of `valor` paid without a callback; returns the Pix's end-to-end id. */
async function receivedPix(valor: string): Promise<string> {
  const txid = newTxid();
  expect((await caller.call("PUT", `/cob/${txid}`, cobBody(bank, valor))).status).toBe(201);
  return (await bank.payCharge(txid, { callback: "drop" })).endToEndId;
}

/** The callbacks posted so far whose items mention `id` (an end-to-end id or an idEnvio). */
function callbacksAbout(id: string): Array<{ pix: Array<Record<string, unknown>> }> {
  return receiver
    .requestsTo("/bank/pix")
    .map((request) => JSON.parse(request.rawBody.toString()) as { pix: Array<Record<string, unknown>> })
    .filter((body) => body.pix.some((item) => item.endToEndId === id || item.idEnvio === id));
}

describe("devolução", () => {
  it("when requested, then 201 EM_PROCESSAMENTO; the same id again gives the same one; it settles DEVOLVIDO with a callback", async () => {
    const e2eid = await receivedPix("10.00");
    const id = newId("dev");

    const first = await caller.call("PUT", `/pix/${e2eid}/devolucao/${id}`, { valor: "4.00" });
    const again = await caller.call("PUT", `/pix/${e2eid}/devolucao/${id}`, { valor: "4.00" });

    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      id,
      valor: "4.00",
      status: "EM_PROCESSAMENTO",
      horario: { solicitacao: expect.any(String) },
    });
    expect(first.json.rtrId).toMatch(/^D[0-9]{20}[A-Za-z0-9]{11}$/);
    expect(again.json.rtrId).toBe(first.json.rtrId);
    const [callback] = await waitUntil("the devolução's callback", () => {
      const found = callbacksAbout(e2eid);
      return found.length > 0 ? found : null;
    });
    expect(callback!.pix[0]).toMatchObject({ endToEndId: e2eid, devolucoes: [{ id, status: "DEVOLVIDO" }] });
    const settled = await caller.call("GET", `/pix/${e2eid}/devolucao/${id}`);
    expect(settled.json).toMatchObject({ status: "DEVOLVIDO", horario: { liquidacao: expect.any(String) } });
    expect((await caller.call("GET", `/pix/${e2eid}`)).json.devolucoes).toHaveLength(1);
  });

  it("when the amount ends in 13, then it settles NAO_REALIZADO with a motivo", async () => {
    const e2eid = await receivedPix("10.00");
    const id = newId("dev");

    await caller.call("PUT", `/pix/${e2eid}/devolucao/${id}`, { valor: "1.13" });

    const refused = await waitUntil("the refusal", async () => {
      const reply = await caller.call("GET", `/pix/${e2eid}/devolucao/${id}`);
      return reply.json.status === "EM_PROCESSAMENTO" ? null : reply.json;
    });
    expect(refused).toMatchObject({ status: "NAO_REALIZADO", motivo: expect.any(String) });
    await waitUntil("its callback", () => callbacksAbout(e2eid).length === 1);
  });

  it("when the devoluções would exceed the payment, then 400 and nothing is added", async () => {
    const e2eid = await receivedPix("10.00");
    await caller.call("PUT", `/pix/${e2eid}/devolucao/${newId("a")}`, { valor: "6.00" });

    const over = await caller.call("PUT", `/pix/${e2eid}/devolucao/${newId("b")}`, { valor: "4.01" });

    expect(over.status).toBe(400);
    expect(over.json.type).toContain("PixDevolucaoInvalida");
    expect((await caller.call("GET", `/pix/${e2eid}`)).json.devolucoes).toHaveLength(1);
  });

  it("when an id is reused with another amount, then 400", async () => {
    const e2eid = await receivedPix("10.00");
    const id = newId("dev");
    await caller.call("PUT", `/pix/${e2eid}/devolucao/${id}`, { valor: "1.00" });

    const reused = await caller.call("PUT", `/pix/${e2eid}/devolucao/${id}`, { valor: "2.00" });

    expect(reused.status).toBe(400);
  });

  it("when the Pix or the devolução is unknown, then 404", async () => {
    const e2eid = await receivedPix("10.00");

    const unknownPix = await caller.call("PUT", `/pix/E99990001202601010000ABCDEFGHIJK/devolucao/x1`, {
      valor: "1.00",
    });
    const unknownRefund = await caller.call("GET", `/pix/${e2eid}/devolucao/nothere`);

    expect([unknownPix.status, unknownRefund.status]).toEqual([404, 404]);
  });
});

describe("MED", () => {
  it("when the bank returns money unasked, then the Pix shows a DEVOLVIDO devolução MED… and the callback says so", async () => {
    const e2eid = await receivedPix("10.00");

    const { id, rtrId } = await bank.med(e2eid, 300);

    expect(id).toMatch(/^MED[A-Za-z0-9]+$/);
    const expected = { id, rtrId, valor: "3.00", natureza: "ORIGINAL", status: "DEVOLVIDO" };
    expect((await caller.call("GET", `/pix/${e2eid}`)).json.devolucoes).toEqual([expect.objectContaining(expected)]);
    expect(callbacksAbout(e2eid)).toEqual([
      { pix: [expect.objectContaining({ devolucoes: [expect.objectContaining(expected)] })] },
    ]);
    await expect(bank.med(e2eid, 701)).rejects.toThrow("exceeds");
  });
});

describe("payouts (Efí)", () => {
  const payout = (valor: string, payerKey = bank.pixKey) => ({
    valor,
    pagador: { chave: payerKey, infoPagador: "saque" },
    favorecido: { chave: "seller@example.com" },
  });

  it("when a Pix is sent, then 201 EM_PROCESSAMENTO, idempotent on idEnvio, REALIZADO after the delay with a callback", async () => {
    const idEnvio = newId("wd");

    const first = await caller.call("PUT", `/v3/gn/pix/${idEnvio}`, payout("25.00"));
    const again = await caller.call("PUT", `/v3/gn/pix/${idEnvio}`, payout("25.00"));

    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      idEnvio,
      valor: "25.00",
      status: "EM_PROCESSAMENTO",
      horario: { solicitacao: expect.any(String) },
    });
    expect(first.json.e2eId).toMatch(/^E[0-9]{20}[A-Za-z0-9]{11}$/);
    expect(again.json.e2eId).toBe(first.json.e2eId);
    const [callback] = await waitUntil("the payout's callback", () => {
      const found = callbacksAbout(idEnvio);
      return found.length > 0 ? found : null;
    });
    expect(callback!.pix[0]).toMatchObject({
      endToEndId: first.json.e2eId,
      idEnvio,
      valor: "25.00",
      status: "REALIZADO",
    });
    expect((await caller.call("GET", `/v2/gn/pix/enviados/id-envio/${idEnvio}`)).json).toMatchObject({
      idEnvio,
      e2eId: first.json.e2eId,
      status: "REALIZADO",
      horario: { liquidacao: expect.any(String) },
    });
  });

  it("when the amount ends in 13, then it settles NAO_REALIZADO with a motivo", async () => {
    const idEnvio = newId("wd");

    await caller.call("PUT", `/v3/gn/pix/${idEnvio}`, payout("2.13"));

    const failed = await waitUntil("the failure", async () => {
      const reply = await caller.call("GET", `/v2/gn/pix/enviados/id-envio/${idEnvio}`);
      return reply.json.status === "EM_PROCESSAMENTO" ? null : reply.json;
    });
    expect(failed).toMatchObject({ status: "NAO_REALIZADO", motivo: expect.any(String) });
  });

  it("when the paying key is not the account's, then 400; an unknown idEnvio reads 404", async () => {
    const refused = await caller.call("PUT", `/v3/gn/pix/${newId("wd")}`, payout("1.00", "someone@example.com"));
    const unknown = await caller.call("GET", `/v2/gn/pix/enviados/id-envio/${newId("wd")}`);

    expect(refused.status).toBe(400);
    expect(unknown.status).toBe(404);
  });
});

describe("forged callback", () => {
  it("when the bank forges a callback, then it reaches webhookUrl + /pix, its status is returned, and the bank knows no such Pix", async () => {
    receiver.script("/bank/pix", [{ status: 202 }]);
    const txid = newTxid();
    try {
      const status = await bank.forgeCallback({ txid, amount: 5000, endToEndId: "E99990001202601010000FORGED00001" });

      expect(status).toBe(202);
      const body = JSON.parse(receiver.requestsTo("/bank/pix").at(-1)!.rawBody.toString());
      expect(body).toEqual({
        pix: [expect.objectContaining({ txid, valor: "50.00", endToEndId: "E99990001202601010000FORGED00001" })],
      });
      expect((await caller.call("GET", "/pix/E99990001202601010000FORGED00001")).status).toBe(404);
    } finally {
      receiver.script("/bank/pix", [{}]);
    }
  });

  it("when the service cannot be reached, then a bank callback is swallowed and recorded with its error", async () => {
    const other = await startBankEmulator();
    try {
      const own = await callerOf(other);
      await own.call("PUT", `/webhook/${other.pixKey}`, { webhookUrl: "http://127.0.0.1:9/closed" });
      const txid = newTxid();
      await own.call("PUT", `/cob/${txid}`, cobBody(other, "1.00"));

      await other.payCharge(txid);

      expect(other.callbacks()).toEqual([
        expect.objectContaining({ url: "http://127.0.0.1:9/closed/pix", status: null, error: expect.any(String) }),
      ]);
    } finally {
      await other.close();
    }
  });
});
