import { type BankEmulator } from "@lm/bank-emulator";
import { waitUntil } from "@lm/testing";
import { PixApiError, centavosFromValor, type PixApiClient } from "../src";
import { clientOf, newTxid, useBank } from "./support/bank";

describe("charges at an emulated bank", () => {
  let bank: BankEmulator;
  let client: PixApiClient;

  const held = useBank();
  beforeAll(() => {
    ({ bank, client } = held);
  });

  test("when a charge is registered, then the bank holds it ATIVA with our amount and gives its BR Code", async () => {
    const txid = newTxid();

    const cob = await client.registerCharge({
      txid,
      amount: 1234,
      expiresIn: 3600,
      debtor: { name: "Fulano de Tal", cpf: "12345678909" },
      payerRequest: "Pedido 42",
    });

    expect(cob).toMatchObject({
      txid,
      status: "ATIVA",
      valor: { original: "12.34" },
      chave: bank.pixKey,
      calendario: { expiracao: 3600 },
      devedor: { nome: "Fulano de Tal", cpf: "12345678909" },
      solicitacaoPagador: "Pedido 42",
    });
    expect(cob.pixCopiaECola).toMatch(/^000201/);
    expect(cob.location).toEqual(expect.any(String));
    expect(bank.charge(txid)).toMatchObject({ status: "ATIVA", valor: { original: "12.34" } });
  });

  test("when a charge is read, then it comes back as the bank holds it; an unknown txid reads as null", async () => {
    const txid = newTxid();
    await client.registerCharge({ txid, amount: 500, expiresIn: 600 });

    const cob = await client.getCharge(txid);

    expect(cob).toMatchObject({ txid, status: "ATIVA", valor: { original: "5.00" } });
    expect(await client.getCharge(newTxid())).toBeNull();
  });

  test("when a paid charge is read, then it is CONCLUIDA and lists the payment", async () => {
    const txid = newTxid();
    await client.registerCharge({ txid, amount: 990, expiresIn: 600 });
    const { endToEndId } = await bank.payCharge(txid, { callback: "drop" });

    const cob = await client.getCharge(txid);

    expect(cob?.status).toBe("CONCLUIDA");
    expect(cob?.pix).toEqual([expect.objectContaining({ endToEndId, txid, valor: "9.90" })]);
  });

  test("when the same txid is registered again with the same amount, then the existing charge is returned", async () => {
    const txid = newTxid();
    const first = await client.registerCharge({ txid, amount: 700, expiresIn: 600 });

    const again = await client.registerCharge({ txid, amount: 700, expiresIn: 600 });

    expect(again).toMatchObject({ txid, pixCopiaECola: first.pixCopiaECola, status: "ATIVA" });
  });

  test("when the txid is already a charge of another amount, then rejected and nothing changes", async () => {
    const txid = newTxid();
    await client.registerCharge({ txid, amount: 700, expiresIn: 600 });

    const error = await client.registerCharge({ txid, amount: 701, expiresIn: 600 }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "rejected", status: null });
    expect(bank.charge(txid)).toMatchObject({ valor: { original: "7.00" } });
  });

  test("when the bank makes the charge but its reply is lost, then the client reads it back: one charge", async () => {
    const slow = clientOf(bank, { timeoutMs: 300 });
    const txid = newTxid();
    const putOf = () => bank.requests().filter((request) => request.method === "PUT" && request.path.endsWith(txid));
    await slow.getWebhook(); // a token first: only the charge's calls are timed
    bank.setLatency(1000);

    const registering = slow.registerCharge({ txid, amount: 4321, expiresIn: 600 });
    await waitUntil("the PUT to reach the bank", () => putOf().length === 1);
    bank.setLatency(0);
    const cob = await registering;
    slow.close();

    expect(cob).toMatchObject({ txid, status: "ATIVA", valor: { original: "43.21" } });
    expect(putOf()).toHaveLength(1);
    expect(bank.charge(txid)).toMatchObject({ revisao: 0 });
  });

  test("when the PUT hangs before the bank acts, then unavailable; the caller's retry makes exactly one charge", async () => {
    const slow = clientOf(bank, { timeoutMs: 300 });
    const txid = newTxid();
    await slow.getWebhook();
    bank.hangNext(1);

    const error = await slow.registerCharge({ txid, amount: 4321, expiresIn: 600 }).catch((err: unknown) => err);
    const cob = await slow.registerCharge({ txid, amount: 4321, expiresIn: 600 });
    slow.close();

    expect(error).toMatchObject({ kind: "unavailable", status: null });
    expect(cob).toMatchObject({ txid, status: "ATIVA", valor: { original: "43.21" } });
    expect(bank.charge(txid)).toMatchObject({ revisao: 0 });
    const reads = bank.requests().filter((request) => request.method === "GET" && request.path.endsWith(txid));
    expect(reads).toHaveLength(1); // the read-back after the hang found nothing, so the first call failed
  });

  test("when the bank refuses the charge, then rejected with the bank's reason and nothing is created", async () => {
    const txid = newTxid();

    const error = await client.registerCharge({ txid, amount: 0, expiresIn: 600 }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "rejected", status: 400 });
    expect((error as PixApiError).reason).toMatch(/greater than zero/);
    expect(bank.charge(txid)).toBeUndefined();
  });

  test("when an ATIVA charge is cancelled, then it is REMOVIDA_PELO_USUARIO_RECEBEDOR", async () => {
    const txid = newTxid();
    await client.registerCharge({ txid, amount: 250, expiresIn: 600 });

    const cob = await client.cancelCharge(txid);

    expect(cob).toMatchObject({ txid, status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    expect(bank.charge(txid)).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
  });

  test("when a paid charge is cancelled, then the bank refuses and the client returns it CONCLUIDA", async () => {
    const txid = newTxid();
    await client.registerCharge({ txid, amount: 250, expiresIn: 600 });
    await bank.payCharge(txid, { callback: "drop" });

    const cob = await client.cancelCharge(txid);

    expect(cob.status).toBe("CONCLUIDA");
    expect(centavosFromValor(cob.pix?.[0]?.valor)).toBe(250);
  });

  test("when an unknown charge is cancelled, then rejected 404", async () => {
    await expect(client.cancelCharge(newTxid())).rejects.toMatchObject({ kind: "rejected", status: 404 });
  });
});

describe("due-date charges (cobv) at an emulated bank", () => {
  let bank: BankEmulator;
  let client: PixApiClient;

  const held = useBank();
  beforeAll(() => {
    ({ bank, client } = held);
  });

  /** A cobv of `original` due in 40 days (a date no weekend or holiday rule makes payable before its creation). */
  const dueInput = (txid: string, original = "150.00") => ({
    txid,
    terms: {
      calendario: { dataDeVencimento: new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10) },
      valor: { original, multa: { modalidade: 2, valorPerc: "2.00" } },
    },
    debtor: { name: "Fulana de Tal", cnpj: "11222333000181" },
    payerRequest: "Mensalidade",
  });

  test("when one is registered, then the bank holds it at /cobv with its terms and gives its BR Code", async () => {
    const txid = newTxid();

    const cobv = await client.registerDueDateCharge(dueInput(txid));

    expect(cobv).toMatchObject({
      txid,
      status: "ATIVA",
      valor: { original: "150.00", multa: { modalidade: 2, valorPerc: "2.00" } },
      devedor: { nome: "Fulana de Tal", cnpj: "11222333000181" },
      loc: { tipoCob: "cobv" },
    });
    expect(cobv.pixCopiaECola).toMatch(/^000201/);
    expect(await client.getDueDateCharge(txid)).toEqual(cobv);
    expect(await client.getCharge(txid)).toBeNull();
    expect(bank.violations()).toEqual([]);
  });

  test("when it is registered again, then the bank's charge is read back; with another amount, rejected", async () => {
    const txid = newTxid();
    const first = await client.registerDueDateCharge(dueInput(txid));

    expect(await client.registerDueDateCharge(dueInput(txid))).toEqual(first);
    await expect(client.registerDueDateCharge(dueInput(txid, "151.00"))).rejects.toMatchObject({ kind: "rejected" });
  });

  test("when it is cancelled, then PATCH /cobv removes it", async () => {
    const txid = newTxid();
    await client.registerDueDateCharge(dueInput(txid));

    expect(await client.cancelCharge(txid, "cobv")).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
  });
});

describe("batches of due-date charges (lotecobv) at an emulated bank", () => {
  let client: PixApiClient;

  const held = useBank();
  beforeAll(() => {
    ({ client } = held);
  });

  const charge = (txid: string, due: string) => ({
    txid,
    terms: { calendario: { dataDeVencimento: due }, valor: { original: "80.00" } },
    debtor: { name: "Fulana de Tal", cpf: "12345678909" },
  });
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  test("when a batch is registered, then each charge's outcome reads back, a refused one with the bank's problem", async () => {
    const [first, refused] = [newTxid(), newTxid()];
    const id = Date.now();

    await client.registerDueDateChargeBatch(id, "Mensalidades", [
      charge(first, inDays(40)),
      charge(refused, inDays(-5)),
    ]);

    const batch = await client.getDueDateChargeBatch(id);
    expect(batch?.cobsv).toEqual([
      expect.objectContaining({ txid: first, status: "CRIADA" }),
      expect.objectContaining({ txid: refused, status: "NEGADA", problema: expect.objectContaining({ status: 400 }) }),
    ]);
    expect((await client.getDueDateCharge(first))?.pixCopiaECola).toMatch(/^000201/);
    expect(await client.getDueDateChargeBatch(id + 1)).toBeNull();
  });

  test("when a batch id is sent again, then the bank's batch stands and no error is raised", async () => {
    const id = Date.now() + 7;
    const txid = newTxid();
    await client.registerDueDateChargeBatch(id, "Mensalidades", [charge(txid, inDays(40))]);

    await client.registerDueDateChargeBatch(id, "Mensalidades", [charge(txid, inDays(40))]);

    expect((await client.getDueDateChargeBatch(id))?.cobsv).toHaveLength(1);
  });
});
