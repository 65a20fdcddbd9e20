import { saoPauloDate } from "@lm/domain";
import { waitUntil } from "@lm/testing";
import { PixApiError, type PixApiClient, type CreateRecurrenceInput } from "../src";
import { type BankEmulator } from "@lm/bank-emulator";
import { clientOf, newTxid, useBank } from "./support/bank";

describe("Pix Automático at an emulated bank", () => {
  let bank: BankEmulator;
  let client: PixApiClient;

  const held = useBank();
  beforeAll(() => {
    ({ bank, client } = held);
  });

  /** São Paulo's date `days` from today. */
  const dateIn = (days: number) => saoPauloDate(new Date(Date.now() + days * 86_400_000));

  const recurrence = (extra: Partial<CreateRecurrenceInput> = {}): CreateRecurrenceInput => ({
    contract: `contrato-${newTxid().slice(0, 8)}`,
    object: "Assinatura mensal",
    debtor: { name: "Fulano de Tal", cpf: "45164632481" },
    startDate: dateIn(5),
    periodicity: "MENSAL",
    amount: 3500,
    retryPolicy: "PERMITE_3R_7D",
    ...extra,
  });

  /** A recurrence authorized by QR and approved by the payer's bank; its idRec. */
  const approved = async () => {
    const loc = await client.createRecurrenceLocation();
    const rec = await client.createRecurrence(recurrence({ locationId: loc.id }));
    await bank.answerRecurrence(rec.idRec, true, { callback: "drop" });
    return rec.idRec;
  };

  const account = { agencia: "0001", conta: "123456", tipoConta: "CORRENTE" } as const;

  test("when a recurrence is created on a new location, then CRIADA, linked, and its BR Code carries both", async () => {
    const loc = await client.createRecurrenceLocation();

    const rec = await client.createRecurrence(recurrence({ locationId: loc.id }));
    const read = await client.getRecurrence(rec.idRec);

    expect(rec).toMatchObject({
      status: "CRIADA",
      vinculo: { devedor: { cpf: "45164632481" } },
      valor: { valorRec: "35.00" },
      politicaRetentativa: "PERMITE_3R_7D",
    });
    expect((await client.getRecurrenceLocation(loc.id))?.idRec).toBe(rec.idRec);
    expect(read?.dadosQR?.pixCopiaECola).toContain(loc.location);
    expect(await client.getRecurrence("RN99990000202601010000000000X")).toBeNull();
  });

  test("when journey 3 names an immediate charge, then the recurrence's BR Code is that charge's with the authorization", async () => {
    const txid = newTxid();
    const cob = await client.registerCharge({ txid, amount: 3500, expiresIn: 3600 });
    const loc = await client.createRecurrenceLocation();

    const rec = await client.createRecurrence(recurrence({ locationId: loc.id, firstPaymentTxid: txid }));
    const read = await client.getRecurrence(rec.idRec, txid);

    expect(read?.dadosQR).toMatchObject({ jornada: "JORNADA_3" });
    expect(read?.dadosQR?.pixCopiaECola).toContain(cob.location);
  });

  test("when the POST /rec reply is lost, then the client reads it back by its location: one recurrence", async () => {
    const slow = clientOf(bank, { timeoutMs: 300 });
    const loc = await slow.createRecurrenceLocation();
    const posts = () => bank.requests().filter((request) => request.method === "POST" && request.path === "/v2/rec");
    const before = posts().length;
    bank.setLatency(1000);

    const creating = slow.createRecurrence(recurrence({ locationId: loc.id }));
    await waitUntil("the POST to reach the bank", () => posts().length === before + 1);
    bank.setLatency(0);
    const rec = await creating;
    slow.close();

    expect(rec.loc?.id).toBe(loc.id);
    expect(bank.recurrences().filter((candidate) => candidate.loc?.id === loc.id)).toHaveLength(1);
  });

  test("when a push request is sent, then ENVIADA and readable by its id", async () => {
    const rec = await client.createRecurrence(recurrence());

    const request = await client.requestRecurrence({
      idRec: rec.idRec,
      expiresAt: new Date(Date.now() + 86_400_000),
      payer: { ispb: "99990001", branch: "0001", account: "998877", cpf: "45164632481" },
    });

    expect(request).toMatchObject({ idRec: rec.idRec, status: "ENVIADA" });
    expect(await client.getRecurrenceRequest(request.idSolicRec)).toMatchObject({ status: "ENVIADA" });
  });

  test("when a recurrence is canceled twice, then CANCELADA both times", async () => {
    const rec = await client.createRecurrence(recurrence());

    await client.cancelRecurrence(rec.idRec);
    const again = await client.cancelRecurrence(rec.idRec);

    expect(again).toMatchObject({ status: "CANCELADA" });
  });

  test("when a rejected recurrence is canceled, then the bank refuses and the client returns it as it is", async () => {
    const rec = await client.createRecurrence(recurrence());
    await bank.answerRecurrence(rec.idRec, false, { callback: "drop" });

    const read = await client.cancelRecurrence(rec.idRec);

    expect(read.status).toBe("REJEITADA");
  });

  test("when the PUT /cobr hangs before the bank acts, then unavailable; the retry makes exactly one charge", async () => {
    const idRec = await approved();
    const txid = newTxid();
    const input = { txid, idRec, dueDate: dateIn(5), amount: 3500, account, description: "Ciclo 1" };
    const slow = clientOf(bank, { timeoutMs: 300 });
    await slow.getWebhook(); // a token first: only the charge's calls are timed
    bank.hangNext(1);

    const first = await slow.registerCycleCharge(input).catch((err: unknown) => err);
    const cobr = await slow.registerCycleCharge(input);
    slow.close();

    expect(first).toBeInstanceOf(PixApiError);
    expect(cobr).toMatchObject({ txid, idRec, status: "ATIVA", valor: { original: "35.00" } });
    expect(bank.cycles(idRec)).toHaveLength(1);
  });

  test("when the txid is already another recurrence's cycle, then rejected", async () => {
    const idRec = await approved();
    const other = await approved();
    const txid = newTxid();
    await client.registerCycleCharge({ txid, idRec, dueDate: dateIn(5), amount: 3500, account });

    const error = await client
      .registerCycleCharge({ txid, idRec: other, dueDate: dateIn(5), amount: 3500, account })
      .catch((err: unknown) => err);

    expect(error).toMatchObject({ kind: "rejected", status: null });
  });

  test("when an attempt fails, then a retry is asked for a date, asked again safely, and the charge is paid", async () => {
    const idRec = await approved();
    const txid = newTxid();
    await client.registerCycleCharge({ txid, idRec, dueDate: dateIn(5), amount: 3500, account });
    await bank.failCycle(txid, { callback: "drop" });

    const retried = await client.retryCycleCharge(txid, dateIn(6));
    const again = await client.retryCycleCharge(txid, dateIn(6));
    const { endToEndId } = await bank.payCycle(txid, { callback: "drop" });
    const paid = await client.getCycleCharge(txid);

    expect(retried.tentativas).toHaveLength(2);
    expect(again.tentativas).toHaveLength(2);
    expect(paid).toMatchObject({ status: "CONCLUIDA", pix: [{ endToEndId, valor: "35.00" }] });
  });

  test("when a cycle charge is canceled, then CANCELADA; a paid one is returned as it is", async () => {
    const idRec = await approved();
    const [open, paid] = [newTxid(), newTxid()];
    for (const txid of [open, paid]) {
      await client.registerCycleCharge({ txid, idRec, dueDate: dateIn(5), amount: 3500, account });
    }
    await bank.payCycle(paid, { callback: "drop" });

    const canceled = await client.cancelCycleCharge(open);
    const kept = await client.cancelCycleCharge(paid);

    expect(canceled.status).toBe("CANCELADA");
    expect(kept.status).toBe("CONCLUIDA");
    expect(await client.getCycleCharge(newTxid())).toBeNull();
  });

  test("when the webhooks are registered, then the bank posts rec and cobr callbacks under that URL", async () => {
    await client.registerRecurrenceWebhooks("https://service.example/v1/acquirers/bank/notifications");

    const paths = bank
      .requests()
      .filter((request) => request.method === "PUT")
      .map((request) => request.path);

    expect(paths).toEqual(expect.arrayContaining(["/v2/webhookrec", "/v2/webhookcobr"]));
  });
});
