import type { OpenCycle } from "@lm/db";
import type { CobR, Rec } from "@lm/pix-api";
import { cycleAtBank, nextEngineStep, notificationEntries, recurrenceAtBank, type PlannedRecurrence } from "../../src";

/** DESIGN §14 "Live": what differs for a recurrence its bank holds, in the pure parts. */
describe("a live recurrence's engine plan", () => {
  const approved: PlannedRecurrence = {
    status: "approved",
    approval_expires_at: new Date("2030-02-01T00:00:00Z"),
    approved_at: new Date("2030-01-02T12:00:00Z"),
    next_cycle: 1,
    next_due_date: "2030-02-15",
    amount: 4990,
    bank_recurrence_id: null,
  };
  const pending = {
    transaction_id: "txn_1",
    recurrence_id: "rec_1",
    due_date: "2030-01-15",
    attempts: 0,
    next_attempt_at: new Date("2030-01-15T15:00:00Z"),
    status: "pending",
    amount: 4990,
    created_at: new Date("2030-01-10T03:00:00Z"),
  } as OpenCycle;

  test("when a cycle is pending in test mode, then the sandbox's debit is the next step", () => {
    expect(nextEngineStep(approved, [pending], 5)).toMatchObject({ kind: "debit", cycle: pending });
  });

  test("when a cycle is pending at a bank, then the engine has no debit: the next step is the next cycle's write", () => {
    const live = { ...approved, bank_recurrence_id: "RR9999000020300102AAAAAAAAAAA" };

    expect(nextEngineStep(live, [pending], 5)).toMatchObject({ kind: "write", dueDate: "2030-02-15" });
  });

  test("when a live cycle was paid, then it is closed as in test mode", () => {
    const live = { ...approved, bank_recurrence_id: "RR9999000020300102AAAAAAAAAAA" };
    const paid = { ...pending, status: "paid" } as OpenCycle;

    expect(nextEngineStep(live, [paid], 5)).toMatchObject({ kind: "close", cycle: paid });
  });
});

describe("a bank's Pix Automático callbacks", () => {
  const idRec = "RR9999000020300102AAAAAAAAAAA";
  const txid = "a".repeat(32);

  test("when a body lists recs, then one rec entry each, keyed by idRec and the item's digest", () => {
    const body = JSON.stringify({
      recs: [
        { idRec, status: "APROVADA" },
        { idRec: "short", status: "CRIADA" },
      ],
    });

    const entries = notificationEntries(Buffer.from(body));

    expect(entries).toEqual([
      { kind: "rec", endToEndId: idRec, providerEventId: expect.stringMatching(`^rec:${idRec}:[0-9a-f]{32}$`) },
      { kind: "rec", endToEndId: null, providerEventId: expect.stringMatching(/^sha256:[0-9a-f]{64}:1$/) },
    ]);
  });

  test("when the same cobr is reported twice in another state, then two keys; the same report twice, one", () => {
    const entry = (status: string) =>
      notificationEntries(Buffer.from(JSON.stringify({ cobsr: [{ idRec, txid, status }] })))[0];

    expect(entry("ATIVA")).toMatchObject({ kind: "cobr", endToEndId: txid });
    expect(entry("ATIVA")?.providerEventId).toBe(entry("ATIVA")?.providerEventId);
    expect(entry("CONCLUIDA")?.providerEventId).not.toBe(entry("ATIVA")?.providerEventId);
  });
});

describe("a bank's recurrence and cycle charge in our terms", () => {
  const rec = (extra: Partial<Rec>): Rec => ({
    idRec: "RR9999000020300102AAAAAAAAAAA",
    vinculo: { contrato: "c-1", devedor: { nome: "Maria", cpf: "52998224725" } },
    calendario: { dataInicial: "2030-01-15", periodicidade: "MENSAL" },
    status: "CRIADA",
    ...extra,
  });
  const cobr = (extra: Partial<CobR>): CobR => ({
    idRec: "RR9999000020300102AAAAAAAAAAA",
    txid: "a".repeat(32),
    calendario: { criacao: "2030-01-10", dataDeVencimento: "2030-01-15" },
    valor: { original: "49.90" },
    status: "ATIVA",
    ...extra,
  });
  const attempt = (status: "AGENDADA" | "REJEITADA" | "PAGA") => ({
    dataLiquidacao: "2030-01-15",
    tipo: "AGND" as const,
    status,
    endToEndId: "E".repeat(32),
  });

  test.each([
    ["USUARIO_PAGADOR", "payer"],
    ["PSP_PAGADOR", "payer"],
    ["USUARIO_RECEBEDOR", "merchant"],
  ] as const)("when a recurrence is CANCELADA by %s, then canceled by the %s", (solicitante, by) => {
    const canceled = rec({
      status: "CANCELADA",
      encerramento: { cancelamento: { solicitante, codigo: "SLDB", descricao: "x" } },
    });

    expect(recurrenceAtBank(canceled)).toEqual({ status: "canceled", canceledBy: by });
  });

  test("when a recurrence is APROVADA, then approved, by no one", () => {
    expect(recurrenceAtBank(rec({ status: "APROVADA" }))).toEqual({ status: "approved", canceledBy: null });
  });

  test("when a cycle's attempt failed and it is still ATIVA, then active with its last attempt failed", () => {
    expect(cycleAtBank(cobr({ tentativas: [attempt("REJEITADA")] }))).toEqual({
      status: "active",
      attempts: 1,
      lastAttemptFailed: true,
      payment: null,
    });
  });

  test("when a cycle is CONCLUIDA with its pix, then paid with the payment as a notification item", () => {
    const pix = [{ endToEndId: "E".repeat(32), valor: "49.90", horario: "2030-01-15T15:00:00.000Z" }];

    expect(cycleAtBank(cobr({ status: "CONCLUIDA", tentativas: [attempt("PAGA")], pix }))).toEqual({
      status: "paid",
      attempts: 1,
      lastAttemptFailed: false,
      payment: {
        endToEndId: "E".repeat(32),
        txid: "a".repeat(32),
        valor: "49.90",
        horario: "2030-01-15T15:00:00.000Z",
      },
    });
  });

  test.each([["REJEITADA"], ["EXPIRADA"]] as const)("when a cycle is %s, then failed", (status) => {
    expect(cycleAtBank(cobr({ status })).status).toBe("failed");
  });
});
