import { centavosFromValor, notificationEntries, readPixPayment, sandboxEndToEndId, valorFromCentavos } from "../src";

describe("Pix notification body", () => {
  test.each([
    ["10.50", 1050],
    ["0.01", 1],
    ["1234567.89", 123456789],
  ])("when valor is %s, then it is %i centavos", (valor, centavos) => {
    expect(centavosFromValor(valor)).toBe(centavos);
    expect(valorFromCentavos(centavos)).toBe(valor);
  });

  test.each([["10.5"], ["10"], ["-1.00"], ["1e3.00"], [10.5], [null]])("when valor is %p, then it is malformed", (valor) => {
    expect(centavosFromValor(valor)).toBeNull();
  });

  test("when a body has two payments, then one entry each, keyed by endToEndId", () => {
    const body = JSON.stringify({ pix: [{ endToEndId: "E1" }, { endToEndId: "E2" }, { txid: "no-id" }] });

    const entries = notificationEntries(body);

    expect(entries.map((e) => e.endToEndId)).toEqual(["E1", "E2", null]);
    expect(entries[2]?.providerEventId).toMatch(/^sha256:[0-9a-f]{64}:2$/);
  });

  test.each([["not json"], ["{}"], ['{"pix":[]}'], ['{"pix":"E1"}']])("when the body is %s, then one malformed entry", (body) => {
    expect(notificationEntries(body)).toEqual([{ providerEventId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), endToEndId: null, kind: "pix" }]);
  });

  test("when a payment names its payer, then name and a valid document are read; an invalid document is dropped", () => {
    const item = { endToEndId: "E1", txid: "T".repeat(26), valor: "1.00", horario: "2026-11-21T12:00:00.000Z" };
    const body = JSON.stringify({
      pix: [
        { ...item, pagador: { nome: " Ana ", cpf: "52998224725" } },
        { ...item, endToEndId: "E2", pagador: { nome: "Bia", cnpj: "11222333000182" } },
      ],
    });

    expect(readPixPayment(body, "E1")).toMatchObject({ amount: 100, payerName: "Ana", payerDocument: { kind: "cpf", digits: "52998224725" } });
    expect(readPixPayment(body, "E2")).toMatchObject({ payerName: "Bia", payerDocument: null });
    expect(readPixPayment(body, "E3")).toBeNull();
  });

  test("when a sandbox end-to-end id is made, then it has the central bank's 32-character layout", () => {
    expect(sandboxEndToEndId(new Date("2026-11-21T12:34:56Z"))).toMatch(/^E00000000202611211234[0-9a-f]{11}$/);
  });
});
