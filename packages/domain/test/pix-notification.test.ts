import {
  notificationEntries,
  readPayoutOutcome,
  readPixPayment,
  readRefundOutcome,
  sandboxEndToEndId,
  sandboxRefuses,
} from "../src";

describe("Pix notification body", () => {
  test("when a body has two payments, then one entry each, keyed by endToEndId", () => {
    const body = JSON.stringify({ pix: [{ endToEndId: "E1" }, { endToEndId: "E2" }, { txid: "no-id" }] });

    const entries = notificationEntries(Buffer.from(body));

    expect(entries.map((e) => e.endToEndId)).toEqual(["E1", "E2", null]);
    expect(entries[2]?.providerEventId).toMatch(/^sha256:[0-9a-f]{64}:2$/);
  });

  test.each([["not json"], ["{}"], ['{"pix":[]}'], ['{"pix":"E1"}']])(
    "when the body is %s, then one malformed entry",
    (body) => {
      expect(notificationEntries(Buffer.from(body))).toEqual([
        { providerEventId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), endToEndId: null, kind: "pix" },
      ]);
    },
  );

  test("when a payment names its payer, then name and a valid document are read; an invalid document is dropped", () => {
    const item = { endToEndId: "E1", txid: "T".repeat(26), valor: "1.00", horario: "2026-11-21T12:00:00.000Z" };
    const body = JSON.stringify({
      pix: [
        { ...item, pagador: { nome: " Ana ", cpf: "52998224725" } },
        { ...item, endToEndId: "E2", pagador: { nome: "Bia", cnpj: "11222333000182" } },
      ],
    });

    expect(readPixPayment(Buffer.from(body), "E1")).toMatchObject({
      amount: 100,
      payerName: "Ana",
      payerDocument: { kind: "cpf", digits: "52998224725" },
    });
    expect(readPixPayment(Buffer.from(body), "E2")).toMatchObject({ payerName: "Bia", payerDocument: null });
    expect(readPixPayment(Buffer.from(body), "E3")).toBeNull();
  });

  test("when a sandbox end-to-end id is made, then it has the central bank's 32-character layout", () => {
    expect(sandboxEndToEndId(new Date("2026-11-21T12:34:56Z"))).toMatch(/^E00000000202611211234[0-9a-f]{11}$/);
  });
});

describe("refund and withdrawal outcomes in the notification body", () => {
  const devolucao = {
    id: "rfd_1",
    rtrId: "D1",
    valor: "5.00",
    horario: { solicitacao: "2026-11-23T10:00:00Z" },
    status: "DEVOLVIDO",
  };
  const payment = { endToEndId: "E1", txid: "T".repeat(26), valor: "10.00", horario: "2026-11-23T10:00:00Z" };

  test("when a payment carries devolucoes, then one entry per devolução, keyed by rtrId and status", () => {
    const body = Buffer.from(
      JSON.stringify({
        pix: [
          {
            ...payment,
            devolucoes: [
              devolucao,
              { ...devolucao, id: "rfd_2", rtrId: "D2", status: "NAO_REALIZADO", natureza: "MED_OPERACIONAL" },
            ],
          },
        ],
      }),
    );

    expect(notificationEntries(body)).toEqual([
      { providerEventId: "D1:DEVOLVIDO", endToEndId: "D1", kind: "devolucao" },
      { providerEventId: "D2:NAO_REALIZADO", endToEndId: "D2", kind: "devolucao" },
    ]);
    expect(readRefundOutcome(body, "D2")).toEqual({
      refundId: "rfd_2",
      returnId: "D2",
      amount: 500,
      status: "failed",
      reason: null,
      paymentEndToEndId: "E1",
      nature: "MED_OPERACIONAL",
    });
    expect(readRefundOutcome(body, "D1")).toMatchObject({ status: "succeeded", nature: null });
    expect(readRefundOutcome(body, "D3")).toBeNull();
  });

  test("when an item carries idEnvio, then it is a sent payment keyed by endToEndId and status", () => {
    const body = Buffer.from(
      JSON.stringify({
        pix: [
          {
            endToEndId: "E9",
            idEnvio: "wd_1",
            valor: "1234.56",
            horario: "2026-11-23T10:00:00Z",
            status: "NAO_REALIZADO",
            motivo: " saldo ",
          },
        ],
      }),
    );

    expect(notificationEntries(body)).toEqual([
      { providerEventId: "E9:NAO_REALIZADO", endToEndId: "E9", kind: "pix_enviado" },
    ]);
    expect(readPayoutOutcome(body, "E9")).toEqual({
      withdrawalId: "wd_1",
      endToEndId: "E9",
      amount: 123456,
      status: "failed",
      reason: "saldo",
    });
  });

  test.each([["10.5"], [10.5], ["1e2"]])("when a devolução's valor is %p, then the outcome is malformed", (valor) => {
    const body = Buffer.from(JSON.stringify({ pix: [{ ...payment, devolucoes: [{ ...devolucao, valor }] }] }));

    expect(readRefundOutcome(body, "D1")).toBeNull();
  });

  test.each([
    [13, true],
    [1013, true],
    [113, true],
    [1300, false],
    [12, false],
    [1014, false],
  ])("when the sandbox is asked to move %i centavos, then it refuses: %p", (amount, refused) => {
    expect(sandboxRefuses(amount)).toBe(refused);
  });
});
