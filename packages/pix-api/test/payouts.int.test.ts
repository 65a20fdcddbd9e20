import { type BankEmulator } from "@lm/bank-emulator";
import { waitUntil } from "@lm/testing";
import { PixApiError, type PixApiClient } from "../src";
import { newId, useBank } from "./support/bank";

describe("Efí payouts at an emulated bank", () => {
  let bank: BankEmulator;
  let client: PixApiClient;

  const held = useBank({ profile: "efi" });
  beforeAll(() => {
    ({ bank, client } = held);
  });

  test("when a payout is sent, then EM_PROCESSAMENTO with an end-to-end id, then REALIZADO once settled", async () => {
    const idEnvio = newId("W");

    const payout = await client.sendPixPayment({ idEnvio, amount: 2599, payeeKey: "vendedor@example.com" });

    expect(payout).toMatchObject({ idEnvio, valor: "25.99", status: "EM_PROCESSAMENTO" });
    expect(payout.e2eId).toMatch(/^E[a-zA-Z0-9]{31}$/);
    const settled = await waitUntil("the payout to settle", async () => {
      const current = await client.getPayout(idEnvio);
      return current?.status === "REALIZADO" ? current : null;
    });
    expect(settled).toMatchObject({ idEnvio, e2eId: payout.e2eId, valor: "25.99" });
    expect(settled.horario.liquidacao).toEqual(expect.any(String));
    const put = bank.requests().find((request) => request.path === `/v3/gn/pix/${idEnvio}`);
    expect(put?.body).toEqual({
      valor: "25.99",
      pagador: { chave: bank.pixKey },
      favorecido: { chave: "vendedor@example.com" },
    });
  });

  test("when the same idEnvio is sent twice, then one payout", async () => {
    const idEnvio = newId("W");

    const first = await client.sendPixPayment({ idEnvio, amount: 100, payeeKey: "+5511999998888" });
    const second = await client.sendPixPayment({ idEnvio, amount: 100, payeeKey: "+5511999998888" });

    expect(second.e2eId).toBe(first.e2eId);
  });

  test("when the bank does not make the payout, then NAO_REALIZADO with its motivo", async () => {
    const idEnvio = newId("W");
    await client.sendPixPayment({ idEnvio, amount: 1013, payeeKey: "vendedor@example.com" });

    const failed = await waitUntil("the payout to fail", async () => {
      const current = await client.getPayout(idEnvio);
      return current?.status === "NAO_REALIZADO" ? current : null;
    });

    expect(failed.motivo).toEqual(expect.any(String));
  });

  test("when an unknown idEnvio is read, then null", async () => {
    expect(await client.getPayout(newId("W"))).toBeNull();
  });

  test("when the idEnvio was used for another payout, then rejected with the bank's reason", async () => {
    const idEnvio = newId("W");
    await client.sendPixPayment({ idEnvio, amount: 100, payeeKey: "vendedor@example.com" });

    const error = await client
      .sendPixPayment({ idEnvio, amount: 200, payeeKey: "vendedor@example.com" })
      .catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "rejected", status: 400 });
    expect((error as PixApiError).reason).toMatch(/already used/);
  });

  test("when the profile is efi, then the token is asked for with a JSON body and the standard's calls still work", async () => {
    const token = bank.requests().find((request) => request.path === "/oauth/token");

    expect(token?.body).toEqual({ grant_type: "client_credentials" });
    expect(await client.getCharge("a".repeat(32))).toBeNull();
  });
});
