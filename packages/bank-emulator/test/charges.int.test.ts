/**
 * Immediate charges (`/cob/{txid}`), received payments (`/pix`), the webhook (`/webhook/{chave}`) and the standard's
 * callback after a payment, plus the schema check of every request.
 */
import { getPixPayloadInfo } from "@brazilian-utils/brazilian-utils";
import { startWebhookReceiver, type WebhookReceiver } from "@lm/testing";
import { startBankEmulator, type BankEmulator } from "../src";
import { callerOf, cobBody, newTxid, type BankCaller } from "./support/bank-requests";

let bank: BankEmulator;
let receiver: WebhookReceiver;
let caller: BankCaller;

beforeAll(async () => {
  [bank, receiver] = await Promise.all([startBankEmulator(), startWebhookReceiver()]);
  caller = await callerOf(bank);
  const registered = await caller.call("PUT", `/webhook/${bank.pixKey}`, { webhookUrl: `${receiver.url}/bank` });
  expect(registered.status).toBe(200);
});

afterAll(async () => {
  await Promise.all([bank.close(), receiver.close()]);
});

/** Creates a charge of `valor` and returns its txid. */
async function createCharge(valor: string, extra: Record<string, unknown> = {}): Promise<string> {
  const txid = newTxid();
  const reply = await caller.call("PUT", `/cob/${txid}`, cobBody(bank, valor, extra));
  expect(reply.status).toBe(201);
  return txid;
}

describe("cob", () => {
  it("when a charge is created, then 201 ATIVA with its location and a BR Code pointing at it", async () => {
    const txid = newTxid();
    const debtor = { cpf: "12345678909", nome: "Fulana de Tal" };

    const reply = await caller.call("PUT", `/cob/${txid}`, cobBody(bank, "12.34", { devedor: debtor }));

    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({
      txid,
      status: "ATIVA",
      revisao: 0,
      calendario: { expiracao: 3600, criacao: expect.any(String) },
      valor: { original: "12.34" },
      chave: bank.pixKey,
      devedor: debtor,
      loc: { id: expect.any(Number), tipoCob: "cob", location: reply.json.location },
    });
    // getPixPayloadInfo checks the CRC16 and reads the dynamic code's location.
    expect(getPixPayloadInfo(reply.json.pixCopiaECola)).toMatchObject({
      pointOfInitiation: "dynamic",
      url: reply.json.location,
    });
    expect((await caller.call("GET", `/cob/${txid}`)).json).toEqual(reply.json);
  });

  it("when the txid is already used, then 400 txid-duplicado and the first charge stands", async () => {
    const txid = await createCharge("10.00");

    const reply = await caller.call("PUT", `/cob/${txid}`, cobBody(bank, "20.00"));

    expect(reply.status).toBe(400);
    expect(reply.json.type).toMatch(/cob\/txid-duplicado$/);
    expect(bank.charge(txid)).toMatchObject({ valor: { original: "10.00" } });
  });

  it("when the charge is unknown, then GET is 404 problem JSON", async () => {
    const reply = await caller.call("GET", `/cob/${newTxid()}`);

    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ status: 404, type: expect.stringContaining("NaoEncontrado") });
  });

  it("when the payee removes an active charge, then 200 REMOVIDA_PELO_USUARIO_RECEBEDOR, and it can no longer be paid", async () => {
    const txid = await createCharge("10.00");

    const reply = await caller.call("PATCH", `/cob/${txid}`, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });

    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR", revisao: 1 });
    await expect(bank.payCharge(txid)).rejects.toThrow("not ATIVA");
  });

  it("when the payee removes a paid charge, then 400 and it stays CONCLUIDA", async () => {
    const txid = await createCharge("10.00");
    await bank.payCharge(txid, { callback: "drop" });

    const reply = await caller.call("PATCH", `/cob/${txid}`, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });

    expect(reply.status).toBe(400);
    expect(reply.json.type).toContain("CobOperacaoInvalida");
    expect((await caller.call("GET", `/cob/${txid}`)).json.status).toBe("CONCLUIDA");
  });

  it("when the charge's lifetime is over, then it still reads ATIVA but only a forced payment goes through", async () => {
    const txid = await createCharge("10.00", { calendario: { expiracao: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 1100));

    expect((await caller.call("GET", `/cob/${txid}`)).json.status).toBe("ATIVA");
    await expect(bank.payCharge(txid)).rejects.toThrow("expired");
    await expect(bank.payCharge(txid, { force: true, callback: "drop" })).resolves.toEqual({
      endToEndId: expect.any(String),
    });
  });
});

describe("payments", () => {
  it("when the bank pays a charge, then the cob is CONCLUIDA with its Pix, and the callback reaches webhookUrl + /pix", async () => {
    const txid = await createCharge("12.34");
    const before = receiver.requestsTo("/bank/pix").length;

    const { endToEndId } = await bank.payCharge(txid, { payer: { name: "Pagador", cpf: "12345678909" } });

    expect(endToEndId).toMatch(/^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/);
    const expectedPix = {
      endToEndId,
      txid,
      valor: "12.34",
      chave: bank.pixKey,
      horario: expect.any(String),
      pagador: { nome: "Pagador", cpf: "12345678909" },
    };
    const delivered = receiver.requestsTo("/bank/pix");
    expect(delivered.length).toBe(before + 1);
    expect(JSON.parse(delivered.at(-1)!.rawBody.toString())).toEqual({ pix: [expectedPix] });
    expect((await caller.call("GET", `/cob/${txid}`)).json).toMatchObject({ status: "CONCLUIDA", pix: [expectedPix] });
    expect((await caller.call("GET", `/pix/${endToEndId}`)).json).toEqual(expectedPix);
    await expect(bank.payCharge(txid)).rejects.toThrow("not ATIVA");
  });

  it("when the callback is dropped, then the charge is paid and nothing is posted", async () => {
    const txid = await createCharge("3.00");
    const before = receiver.requestsTo("/bank/pix").length;

    await bank.payCharge(txid, { callback: "drop" });

    expect(receiver.requestsTo("/bank/pix").length).toBe(before);
    expect(bank.charge(txid)).toMatchObject({ status: "CONCLUIDA" });
  });

  it("when a Pix is unknown, then GET /pix/{e2eid} is 404", async () => {
    const reply = await caller.call("GET", `/pix/E99990001202601010000ABCDEFGHIJK`);

    expect(reply.status).toBe(404);
  });

  it("when payments are listed by period, then oldest first, paged, with the standard's paging figures", async () => {
    const inicio = new Date().toISOString();
    const paid: string[] = [];
    for (const valor of ["1.00", "2.00", "3.00"]) {
      paid.push((await bank.payCharge(await createCharge(valor), { callback: "drop" })).endToEndId);
    }
    const fim = new Date().toISOString();
    const list = (page: number) =>
      caller.call("GET", `/pix?inicio=${inicio}&fim=${fim}&paginacao.paginaAtual=${page}&paginacao.itensPorPagina=2`);

    const [first, second] = [await list(0), await list(1)];

    expect(first.status).toBe(200);
    expect(first.json.parametros).toEqual({
      inicio,
      fim,
      paginacao: { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 },
    });
    expect([...first.json.pix, ...second.json.pix].map((pix: { endToEndId: string }) => pix.endToEndId)).toEqual(paid);
    const empty = await caller.call("GET", `/pix?inicio=2020-01-01T00:00:00Z&fim=2020-01-02T00:00:00Z`);
    expect(empty.json).toMatchObject({ pix: [], parametros: { paginacao: { quantidadeTotalDeItens: 0 } } });
  });
});

describe("webhook", () => {
  it("when registered, then GET tells its URL, key and creation; DELETE removes it and GET is then 404", async () => {
    const other = await startBankEmulator();
    try {
      const own = await callerOf(other);
      expect((await own.call("GET", `/webhook/${other.pixKey}`)).status).toBe(404);

      expect(
        (await own.call("PUT", `/webhook/${other.pixKey}`, { webhookUrl: "https://example.test/hook" })).status,
      ).toBe(200);
      expect((await own.call("GET", `/webhook/${other.pixKey}`)).json).toEqual({
        webhookUrl: "https://example.test/hook",
        chave: other.pixKey,
        criacao: expect.any(String),
      });
      expect(other.webhookUrl()).toBe("https://example.test/hook");
      expect((await own.call("DELETE", `/webhook/${other.pixKey}`)).status).toBe(204);
      expect((await own.call("GET", `/webhook/${other.pixKey}`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("when the key is not the account's, then PUT is 400", async () => {
    const reply = await caller.call("PUT", `/webhook/someone-else@example.com`, {
      webhookUrl: "https://example.test/x",
    });

    expect(reply.status).toBe(400);
    expect(reply.json.type).toContain("WebhookOperacaoInvalida");
  });
});

describe("schema check", () => {
  it("when a body breaks the standard's schema, then 400 with violacoes, listed by violations(), and nothing is created", async () => {
    const txid = newTxid();
    const before = bank.violations().length;

    const reply = await caller.call("PUT", `/cob/${txid}`, { ...cobBody(bank, "12.3"), valr: 1 });

    expect(reply.status).toBe(400);
    expect(reply.json.violacoes).toEqual(
      expect.arrayContaining([
        { razao: expect.any(String), propriedade: "cob.valor.original", valor: "12.3" },
        { razao: expect.any(String), propriedade: "cob.valr" },
      ]),
    );
    expect(bank.violations().slice(before)).toEqual([
      {
        method: "PUT",
        path: `/v2/cob/${txid}`,
        schemaErrors: expect.arrayContaining([expect.stringContaining("cob.valor.original")]),
      },
    ]);
    expect(bank.charge(txid)).toBeUndefined();
  });

  it("when a path or query parameter breaks the schema, then 400 and a violation", async () => {
    const before = bank.violations().length;

    const shortTxid = await caller.call("GET", "/cob/tooshort");
    const noPeriod = await caller.call("GET", "/pix?paginacao.itensPorPagina=5000");

    expect([shortTxid.status, noPeriod.status]).toEqual([400, 400]);
    expect(noPeriod.json.violacoes.map((violation: { propriedade: string }) => violation.propriedade)).toEqual(
      expect.arrayContaining(["inicio", "fim", "paginacao.itensPorPagina"]),
    );
    expect(bank.violations().length).toBe(before + 2);
  });

  it("when requests follow the standard, then every one is recorded with no schema error", async () => {
    const txid = await createCharge("7.00");

    const recorded = bank.requests().filter((request) => request.path === `/v2/cob/${txid}`);

    expect(recorded).toEqual([
      { method: "PUT", path: `/v2/cob/${txid}`, body: cobBody(bank, "7.00"), schemaErrors: [] },
    ]);
  });
});
