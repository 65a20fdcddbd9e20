/**
 * Pix Automático at the emulated bank: locations (`/locrec`), recurrences (`/rec`), push requests (`/solicrec`),
 * cycle charges (`/cobr`) with their retries, the two webhooks, and the payer's bank played on request, each change
 * posted to `webhookrec` + `/rec` or `webhookcobr` + `/cobr`.
 */
import { saoPauloDate } from "@lm/domain";
import { startWebhookReceiver, type WebhookReceiver } from "@lm/testing";
import { startBankEmulator, type BankEmulator } from "../src";
import { callerOf, cobBody, newTxid, type BankCaller } from "./support/bank-requests";

let bank: BankEmulator;
let receiver: WebhookReceiver;
let caller: BankCaller;

beforeAll(async () => {
  [bank, receiver] = await Promise.all([startBankEmulator(), startWebhookReceiver()]);
  caller = await callerOf(bank);
  await caller.call("PUT", "/webhookrec", { webhookUrl: `${receiver.url}/hooks` });
  await caller.call("PUT", "/webhookcobr", { webhookUrl: `${receiver.url}/hooks` });
});

afterEach(() => {
  expect(bank.violations()).toEqual([]);
});

afterAll(async () => {
  await Promise.all([bank.close(), receiver.close()]);
});

/** São Paulo's date `days` from today. */
function dateIn(days: number): string {
  return saoPauloDate(new Date(Date.now() + days * 86_400_000));
}

/** A `RecSolicitada` body: monthly, R$ 35,00, from `dateIn(5)`. */
function recBody(extra: Record<string, unknown> = {}) {
  return {
    vinculo: { contrato: "63100862", devedor: { cpf: "45164632481", nome: "Fulano de Tal" }, objeto: "Streaming" },
    calendario: { dataInicial: dateIn(5), periodicidade: "MENSAL" },
    valor: { valorRec: "35.00" },
    politicaRetentativa: "PERMITE_3R_7D",
    ...extra,
  };
}

/** A recurrence created with a new location, approved by the payer's bank. */
async function approvedRecurrence(): Promise<string> {
  const loc = await caller.call("POST", "/locrec");
  const rec = await caller.call("POST", "/rec", recBody({ loc: loc.json.id }));
  await bank.answerRecurrence(rec.json.idRec, true);
  return rec.json.idRec as string;
}

/** A `CobRSolicitada` body of recurrence `idRec`, due on `dateIn(5)`. */
function cobrBody(idRec: string, original = "35.00") {
  return {
    idRec,
    calendario: { dataDeVencimento: dateIn(5) },
    valor: { original },
    ajusteDiaUtil: true,
    recebedor: { agencia: "0001", conta: "123456", tipoConta: "CORRENTE" },
  };
}

describe("rec and locrec", () => {
  it("when a recurrence names a new location, then it is CRIADA, linked, and its QR code carries the location", async () => {
    const loc = await caller.call("POST", "/locrec");

    const created = await caller.call("POST", "/rec", recBody({ loc: loc.json.id }));
    const read = await caller.call("GET", `/rec/${created.json.idRec}`);

    expect(loc.status).toBe(201);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: "CRIADA", idRec: expect.stringMatching(/^RR[0-9A-Za-z]{27}$/) });
    expect((await caller.call("GET", `/locrec/${loc.json.id}`)).json.idRec).toBe(created.json.idRec);
    expect(read.json.dadosQR).toEqual({
      jornada: "JORNADA_2",
      pixCopiaECola: expect.stringContaining(loc.json.location),
    });
  });

  it("when a recurrence names a location already linked, then 400 and no second recurrence", async () => {
    const loc = await caller.call("POST", "/locrec");
    await caller.call("POST", "/rec", recBody({ loc: loc.json.id }));
    const before = bank.recurrences().length;

    const again = await caller.call("POST", "/rec", recBody({ loc: loc.json.id }));

    expect(again.status).toBe(400);
    expect(bank.recurrences()).toHaveLength(before);
  });

  it("when journey 3 names its cob, then the recurrence's QR code is the cob's with the authorization", async () => {
    const txid = newTxid();
    const cob = await caller.call("PUT", `/cob/${txid}`, cobBody(bank, "35.00"));
    const loc = await caller.call("POST", "/locrec");
    const rec = await caller.call("POST", "/rec", recBody({ loc: loc.json.id, ativacao: { dadosJornada: { txid } } }));

    const read = await caller.call("GET", `/rec/${rec.json.idRec}?txid=${txid}`);

    expect(read.json.dadosQR.jornada).toBe("JORNADA_3");
    expect(read.json.dadosQR.pixCopiaECola).toContain(cob.json.location);
    expect(read.json.dadosQR.pixCopiaECola).toContain(loc.json.location);
  });

  it("when the receiver cancels a recurrence, then it is CANCELADA by USUARIO_RECEBEDOR", async () => {
    const rec = await caller.call("POST", "/rec", recBody());

    const canceled = await caller.call("PATCH", `/rec/${rec.json.idRec}`, { status: "CANCELADA" });

    expect(canceled.json).toMatchObject({
      status: "CANCELADA",
      encerramento: { cancelamento: { solicitante: "USUARIO_RECEBEDOR" } },
    });
  });
});

describe("the payer's bank", () => {
  it("when the payer approves, then APROVADA by journey 2 and the callback is posted to webhookrec + /rec", async () => {
    const loc = await caller.call("POST", "/locrec");
    const rec = await caller.call("POST", "/rec", recBody({ loc: loc.json.id }));
    const posted = receiver.requestsTo("/hooks/rec").length;

    await bank.answerRecurrence(rec.json.idRec, true);

    const [callback] = (await receiver.waitForRequests(posted + 1, { path: "/hooks/rec" })).slice(-1);
    expect(JSON.parse(callback?.rawBody.toString() ?? "{}")).toMatchObject({
      recs: [{ idRec: rec.json.idRec, status: "APROVADA", ativacao: { tipoJornada: "JORNADA_2" } }],
    });
  });

  it("when a push request is rejected, then the recurrence is REJEITADA and the request too", async () => {
    const rec = await caller.call("POST", "/rec", recBody());
    const request = await caller.call("POST", "/solicrec", {
      idRec: rec.json.idRec,
      calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 86_400_000).toISOString() },
      destinatario: { ispbParticipante: "99990001", agencia: "0001", conta: "998877", cpf: "45164632481" },
    });

    await bank.answerRecurrence(rec.json.idRec, false);

    expect(request.json.status).toBe("ENVIADA");
    expect((await caller.call("GET", `/solicrec/${request.json.idSolicRec}`)).json.status).toBe("REJEITADA");
    expect((await caller.call("GET", `/rec/${rec.json.idRec}`)).json).toMatchObject({
      status: "REJEITADA",
      encerramento: { rejeicao: { codigo: "AP13" } },
    });
  });
});

describe("cobr", () => {
  it("when a cycle is registered for an approved recurrence, then ATIVA with its first attempt scheduled", async () => {
    const idRec = await approvedRecurrence();
    const txid = newTxid();

    const reply = await caller.call("PUT", `/cobr/${txid}`, cobrBody(idRec));

    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({
      idRec,
      txid,
      status: "ATIVA",
      valor: { original: "35.00" },
      tentativas: [{ dataLiquidacao: dateIn(5), tipo: "AGND", status: "AGENDADA" }],
    });
  });

  it("when a cycle names a recurrence not approved, then 400 and nothing is registered", async () => {
    const rec = await caller.call("POST", "/rec", recBody());
    const txid = newTxid();

    const reply = await caller.call("PUT", `/cobr/${txid}`, cobrBody(rec.json.idRec));

    expect(reply.status).toBe(400);
    expect((await caller.call("GET", `/cobr/${txid}`)).status).toBe(404);
  });

  it("when an attempt fails and a retry is asked and paid, then CONCLUIDA with its pix, listed by GET /pix", async () => {
    const idRec = await approvedRecurrence();
    const txid = newTxid();
    await caller.call("PUT", `/cobr/${txid}`, cobrBody(idRec, "35.10"));
    const posted = receiver.requestsTo("/hooks/cobr").length;

    await bank.failCycle(txid);
    const retry = await caller.call("POST", `/cobr/${txid}/retentativa/${dateIn(6)}`);
    const { endToEndId } = await bank.payCycle(txid);

    expect(retry.status).toBe(201);
    const callbacks = await receiver.waitForRequests(posted + 2, { path: "/hooks/cobr" });
    expect(JSON.parse(callbacks.at(-2)?.rawBody.toString() ?? "{}").cobsr[0].tentativas[0]).toMatchObject({
      status: "REJEITADA",
    });
    const read = await caller.call("GET", `/cobr/${txid}`);
    expect(read.json).toMatchObject({
      status: "CONCLUIDA",
      pix: [{ endToEndId, txid, valor: "35.10" }],
      tentativas: [{ status: "REJEITADA" }, { tipo: "NTAG", status: "PAGA", endToEndId }],
    });
    expect((await caller.call("GET", `/pix/${endToEndId}`)).json).toMatchObject({ txid, valor: "35.10" });
  });

  it("when a retry is asked of an attempt that did not fail, then 400", async () => {
    const idRec = await approvedRecurrence();
    const txid = newTxid();
    await caller.call("PUT", `/cobr/${txid}`, cobrBody(idRec));

    const retry = await caller.call("POST", `/cobr/${txid}/retentativa/${dateIn(6)}`);

    expect(retry.status).toBe(400);
  });

  it("when the payer cancels the recurrence, then its unpaid cycles are CANCELADA too", async () => {
    const idRec = await approvedRecurrence();
    const txid = newTxid();
    await caller.call("PUT", `/cobr/${txid}`, cobrBody(idRec));

    await bank.cancelRecurrenceByPayer(idRec);

    expect((await caller.call("GET", `/rec/${idRec}`)).json.encerramento.cancelamento.solicitante).toBe(
      "USUARIO_PAGADOR",
    );
    expect((await caller.call("GET", `/cobr/${txid}`)).json.status).toBe("CANCELADA");
  });
});
