/**
 * Due-date charges (`/cobv/{txid}`) and their batches (`/lotecobv/{id}`): created, read, removed and paid as the
 * payer's bank does, on the day of payment, with the parts of what was paid in `componentesValor`.
 */
import { isBusinessDay, saoPauloDate } from "@lm/domain";
import { startWebhookReceiver, type WebhookReceiver } from "@lm/testing";
import { startBankEmulator, type BankEmulator } from "../src";
import { callerOf, newTxid, type BankCaller } from "./support/bank-requests";

let bank: BankEmulator;
let receiver: WebhookReceiver;
let caller: BankCaller;

beforeAll(async () => {
  [bank, receiver] = await Promise.all([startBankEmulator(), startWebhookReceiver()]);
  caller = await callerOf(bank);
  await caller.call("PUT", `/webhook/${bank.pixKey}`, { webhookUrl: `${receiver.url}/bank` });
});

afterAll(async () => {
  await Promise.all([bank.close(), receiver.close()]);
});

const DAY_MS = 86_400_000;

/** São Paulo's date `days` from today. */
function dateIn(days: number): string {
  return saoPauloDate(new Date(Date.now() + days * DAY_MS));
}

/** The first business day at least a day from now, and how many days from now it is. */
function nextBusinessDay(): { date: string; days: number } {
  for (let days = 1; ; days += 1) if (isBusinessDay(dateIn(days))) return { date: dateIn(days), days };
}

/** A `cobv` body: R$ 100,00 due on `dueDate` with a 3 % fine and 1 % a calendar day of interest (the standard's). */
function cobvBody(dueDate: string, extra: Record<string, unknown> = {}) {
  return {
    calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 30 },
    devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
    valor: {
      original: "100.00",
      multa: { modalidade: 2, valorPerc: "3.00" },
      juros: { modalidade: 2, valorPerc: "1.00" },
    },
    chave: bank.pixKey,
    ...extra,
  };
}

describe("cobv", () => {
  it("when a due-date charge is created, then 201 with its due date, its receiver, and no cob of that txid", async () => {
    const txid = newTxid();
    const due = nextBusinessDay().date;

    const reply = await caller.call("PUT", `/cobv/${txid}`, cobvBody(due));

    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({
      txid,
      status: "ATIVA",
      calendario: { dataDeVencimento: due, validadeAposVencimento: 30, criacao: expect.any(String) },
      valor: { original: "100.00", multa: { modalidade: 2, valorPerc: "3.00" } },
      recebedor: { nome: expect.any(String), cnpj: expect.any(String) },
      loc: { tipoCob: "cobv" },
      pixCopiaECola: expect.any(String),
    });
    expect((await caller.call("GET", `/cobv/${txid}`)).json).toEqual(reply.json);
    expect((await caller.call("GET", `/cob/${txid}`)).status).toBe(404);
  });

  it("when the due date is past or the debtor is missing, then 400 and nothing is created", async () => {
    const past = await caller.call("PUT", `/cobv/${newTxid()}`, cobvBody(dateIn(-1)));
    const before = bank.violations().length;
    const { devedor: _left, ...withoutDebtor } = cobvBody(dateIn(1));
    const noDebtor = await caller.call("PUT", `/cobv/${newTxid()}`, withoutDebtor);

    expect(past.status).toBe(400);
    expect(past.json.detail).toContain("due-date terms are refused");
    expect(noDebtor.status).toBe(400);
    expect(bank.violations().slice(before)).toHaveLength(1);
  });

  it("when it is paid 2 days after its due date, then the payer's bank adds the fine and interest: R$ 105,00", async () => {
    const txid = newTxid();
    const { days } = nextBusinessDay();
    await caller.call("PUT", `/cobv/${txid}`, cobvBody(dateIn(days)));

    const { endToEndId } = await bank.payCharge(txid, { date: dateIn(days + 2) });

    const pix = (await caller.call("GET", `/pix/${endToEndId}`)).json;
    expect(pix).toMatchObject({
      txid,
      valor: "105.00",
      componentesValor: { original: { valor: "100.00" }, multa: { valor: "3.00" }, juros: { valor: "2.00" } },
    });
    expect(pix.horario.startsWith(dateIn(days + 2))).toBe(true);
    expect((await caller.call("GET", `/cobv/${txid}`)).json.status).toBe("CONCLUIDA");
  });

  it("when a payer's bank computed otherwise, then the difference is in the interest and the parts still add up", async () => {
    const txid = newTxid();
    const { days } = nextBusinessDay();
    await caller.call("PUT", `/cobv/${txid}`, cobvBody(dateIn(days)));

    const { endToEndId } = await bank.payCharge(txid, { date: dateIn(days + 2), amount: 10_450 });

    expect((await caller.call("GET", `/pix/${endToEndId}`)).json).toMatchObject({
      valor: "104.50",
      componentesValor: { original: { valor: "100.00" }, multa: { valor: "3.00" }, juros: { valor: "1.50" } },
    });
  });

  it("when it is paid after its last payable day, then the payer's bank refuses", async () => {
    const txid = newTxid();
    await caller.call("PUT", `/cobv/${txid}`, cobvBody(dateIn(1), { calendario: { dataDeVencimento: dateIn(1) } }));
    const lastDay = (await caller.call("GET", `/cobv/${txid}`)).json;

    await expect(bank.payCharge(txid, { date: dateIn(60) })).rejects.toThrow("expired");
    expect(lastDay.calendario.validadeAposVencimento).toBe(30);
  });

  it("when the payee removes it, then PATCH /cobv answers it removed", async () => {
    const txid = newTxid();
    await caller.call("PUT", `/cobv/${txid}`, cobvBody(dateIn(1)));

    const reply = await caller.call("PATCH", `/cobv/${txid}`, { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });

    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
  });
});

describe("lotecobv", () => {
  it("when a batch is sent, then 202, each cobv is created or refused on its own, and the batch reads back", async () => {
    const [first, second, refused] = [newTxid(), newTxid(), newTxid()];
    const id = String(Date.now());
    const body = {
      descricao: "Mensalidades",
      cobsv: [
        { txid: first, ...cobvBody(dateIn(5)) },
        { txid: second, ...cobvBody(dateIn(6)) },
        { txid: refused, ...cobvBody(dateIn(-3)) },
      ],
    };

    const reply = await caller.call("PUT", `/lotecobv/${id}`, body);

    expect(reply.status).toBe(202);
    const batch = (await caller.call("GET", `/lotecobv/${id}`)).json;
    expect(batch).toMatchObject({ id: Number(id), descricao: "Mensalidades" });
    expect(batch.cobsv).toEqual([
      { txid: first, status: "CRIADA", criacao: expect.any(String) },
      { txid: second, status: "CRIADA", criacao: expect.any(String) },
      {
        txid: refused,
        status: "NEGADA",
        criacao: expect.any(String),
        problema: expect.objectContaining({ status: 400 }),
      },
    ]);
    expect((await caller.call("GET", `/cobv/${second}`)).status).toBe(200);
    expect((await caller.call("PUT", `/lotecobv/${id}`, body)).status).toBe(400);
  });

  it("when requests follow the standard, then none of them broke its schemas", () => {
    const unexpected = bank
      .violations()
      .filter((violation) => !violation.schemaErrors.some((error) => error.includes("devedor")));

    expect(unexpected).toEqual([]);
  });
});
