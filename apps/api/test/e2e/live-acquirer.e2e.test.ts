import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { BankEmulator } from "@lm/bank-emulator";
import { isBusinessDay, registerBankWebhook, saoPauloDate } from "@lm/domain";
import { useWebhookReceiver, waitUntil } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { opsOf, useLiveStack } from "./support/live-stack";
import type { EndpointOwner } from "../support/webhook-endpoints";
import type { MerchantClient } from "../support/merchant-client";
import { addPayoutKeyAgo } from "../support/money-owner";
import { requestRefund, requestWithdrawal } from "../support/money-requests";

/**
 * Live mode through a bank of the Central Bank's API Pix standard (DESIGN §9), end to end: the API listening on a
 * real port, the worker, and the bank emulator over mutual TLS. Every request the bank received must conform to the
 * standard's schemas.
 */
const DAY_MS = 86_400_000;

describe("live mode through an API Pix bank", () => {
  const ctx = useE2eTestContext({ ACQUIRER_TIMEOUT_MS: "1000" });
  const receiver = useWebhookReceiver();
  const stack = useLiveStack(ctx, receiver);
  let bank: BankEmulator;
  let server: http.Server;
  let owner: EndpointOwner;
  let live: MerchantClient;

  const ops = opsOf(ctx);
  const configure = (slug: string, profile: "bcb" | "efi") =>
    ops(
      "acquirer:configure",
      slug,
      "--profile",
      profile,
      "--api-url",
      bank.apiUrl,
      "--token-url",
      bank.tokenUrl,
      "--client-id",
      bank.client.clientId,
      "--client-secret-file",
      bank.client.files.clientSecret,
      "--cert-file",
      bank.client.files.cert,
      "--key-file",
      bank.client.files.key,
      "--ca-file",
      bank.client.files.ca,
      "--pix-key",
      bank.pixKey,
    );
  const inboxItems = () =>
    ctx.db.inboxItem.findMany({ where: { acquirer: { slug: "efi-bank" } }, orderBy: { id: "asc" } });
  const charge = async (id: string) => (await live.get(`/v1/transactions/${id}`).expect(200)).body;
  const eventsAtReceiver = (type: string) =>
    receiver.current.requestsTo("/live").filter((r) => r.headers["x-event-type"] === type);
  /** The `data.object` of every `type` event the endpoint received. */
  const objectsAtReceiver = (type: string) =>
    eventsAtReceiver(type).map(
      (r) =>
        (JSON.parse(r.rawBody.toString("utf8")) as { data: { object: { id: string; payment: unknown } } }).data.object,
    );

  beforeAll(() => {
    ({ bank, server, owner, live } = stack.current);
  });

  test("when live mode has no acquirer, then charges, refunds and withdrawals are refused with 503 and nothing is created", async () => {
    const res = await live.post("/v1/transactions", { amount: 1000 });

    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_not_configured" });
    expect(await ctx.db.transaction.count({ where: { mode: "live" } })).toBe(0);
    expect(bank.requests()).toEqual([]);
  });

  test("when an operator configures, checks, registers the webhook and activates a bank, then each step says so and no secret is printed", async () => {
    const configured = await configure("efi-bank", "efi");
    const before = await ops("acquirer:check", "efi-bank");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const registered = await registerBankWebhook(
      { ...ctx.deps, config: { ...ctx.config, publicBaseUrl: url } },
      "efi-bank",
    );
    const after = await ops("acquirer:check", "efi-bank", "--json");
    const activated = await ops("acquirer:activate", "efi-bank", "--mode", "live");

    expect([configured.exitCode, before.exitCode, after.exitCode, activated.exitCode]).toEqual([0, 0, 0, 0]);
    expect(before.stdout).toContain("webhook not registered");
    expect(registered).toBe(`${url}/v1/acquirers/efi-bank/notifications`);
    expect(JSON.parse(after.stdout)).toEqual({ slug: "efi-bank", ok: true, webhook_url: registered });
    expect(bank.webhookUrl()).toBe(registered);
    const row = await ctx.db.acquirer.findUniqueOrThrow({ where: { slug: "efi-bank" } });
    expect(row).toMatchObject({ profile: "efi", mode: "live", client_id: bank.client.clientId });
    const printed = [configured, before, after, activated].map((o) => o.stdout + o.stderr).join("");
    for (const secret of [bank.client.clientSecret, bank.client.keyPem.split("\n")[1] ?? ""]) {
      expect(printed).not.toContain(secret);
      expect(row.credentials_ciphertext).not.toContain(secret);
    }
  });

  test("when a live charge is paid at the bank, then the callback is read back, the charge is paid and transaction.paid arrives", async () => {
    const created = (await live.post("/v1/transactions", { amount: 12_345, description: "Pedido 1" }).expect(201)).body;
    const cob = bank.charge(created.txid);

    expect(cob).toMatchObject({ status: "ATIVA", valor: { original: "123.45" }, solicitacaoPagador: "Pedido 1" });
    expect(created.pix.copy_paste).toBe(cob?.pixCopiaECola);

    const { endToEndId } = await bank.payCharge(created.txid, { payer: { name: "Ana Pagadora", cpf: "52998224725" } });
    await waitUntil("the charge paid", async () => (await charge(created.id)).status === "paid");
    const paid = await charge(created.id);
    expect(paid).toMatchObject({
      status: "paid",
      payment: {
        end_to_end_id: endToEndId,
        amount: 12_345,
        payer: { name: "Ana Pagadora", document_masked: expect.any(String) },
      },
    });
    await waitUntil("transaction.paid at the endpoint", () => eventsAtReceiver("transaction.paid").length === 1);
    expect(bank.requests().some((r) => r.method === "GET" && r.path === `/v2/pix/${endToEndId}`)).toBe(true);
  });

  /** A due-date charge of R$ 100,00 with the standard's 3 % fine and 1 % a calendar day, due on the first business
   *  day from today; and the day `lateDays` after its due date. */
  const dueDateCharge = async (lateDays: number) => {
    let days = 0;
    while (!isBusinessDay(saoPauloDate(new Date(Date.now() + days * DAY_MS)))) days += 1;
    const created = await live
      .post("/v1/transactions", {
        amount: 10_000,
        due_date: saoPauloDate(new Date(Date.now() + days * DAY_MS)),
        customer: { name: "Ana Pagadora", document: "52998224725" },
        fine: { type: "percent", value: "3.00" },
        interest: { type: "percent_per_day", days: "calendar", value: "1.00" },
      })
      .expect(201);
    return { charge: created.body, paidOn: saoPauloDate(new Date(Date.now() + (days + lateDays) * DAY_MS)) };
  };

  test("when a live due-date charge is paid 3 days late, then the bank's cobv is paid with fine and interest, and that total is credited", async () => {
    const balance = async () => (await owner.panel.get("/v1/me/balance?mode=live")).body.available as number;
    const before = await balance();
    const { charge: created, paidOn } = await dueDateCharge(3);
    expect(bank.charge(created.txid)).toMatchObject({ loc: { tipoCob: "cobv" }, valor: { original: "100.00" } });
    expect(created.pix.copy_paste).toBe(bank.charge(created.txid)?.pixCopiaECola);

    await bank.payCharge(created.txid, { date: paidOn });

    await waitUntil("the charge paid", async () => (await charge(created.id)).status === "paid");
    const paidObject = () => objectsAtReceiver("transaction.paid").find((object) => object.id === created.id);
    await waitUntil("transaction.paid at the endpoint", () => paidObject() !== undefined);
    // 3 % fine and 3 days of 1 % a day on R$ 100,00: 100 + 3 + 3.
    const components = { original: 10_000, fine: 300, interest: 300, reduction: 0, discount: 0 };
    expect(paidObject()?.payment).toMatchObject({ amount: 10_600, components });
    expect(await balance()).toBe(before + 10_600);
    const item = (await inboxItems()).find((i) => i.transaction_id === created.id);
    expect(item).toMatchObject({ error: null, note: null });
  });

  test("when the bank confirms a due-date payment at another total than ours, then the bank's amount is credited and the item notes the difference", async () => {
    const { charge: created, paidOn } = await dueDateCharge(3);

    await bank.payCharge(created.txid, { date: paidOn, amount: 10_550 });

    await waitUntil("the charge paid", async () => (await charge(created.id)).status === "paid");
    expect((await charge(created.id)).payment).toMatchObject({
      amount: 10_550,
      components: { original: 10_000, fine: 300, interest: 250, reduction: 0, discount: 0 },
    });
    const item = (await inboxItems()).find((i) => i.transaction_id === created.id);
    expect(item).toMatchObject({
      error: null,
      note: "amount_differs_from_computed: computed 10600, the bank reported 10550",
    });
  });

  test("when a forged callback names a pending charge, then the bank does not confirm it and the charge stays pending", async () => {
    const created = (await live.post("/v1/transactions", { amount: 5_000 }).expect(201)).body;

    const status = await bank.forgeCallback({ txid: created.txid, amount: 5_000 });

    expect(status).toBe(200);
    await waitUntil("the forged item judged", async () =>
      (await inboxItems()).some((item) => item.error?.startsWith("not_confirmed_by_acquirer")),
    );
    expect((await charge(created.id)).status).toBe("pending");
  });

  test("when a callback is lost, then acquirer:reconcile finds the payment and the charge is paid", async () => {
    const created = (await live.post("/v1/transactions", { amount: 7_000 }).expect(201)).body;
    const { endToEndId } = await bank.payCharge(created.txid, { callback: "drop" });

    const out = await ops(
      "acquirer:reconcile",
      "efi-bank",
      "--since",
      new Date(Date.now() - 60_000).toISOString(),
      "--json",
    );

    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ stored: 1 });
    await waitUntil("the charge paid", async () => (await charge(created.id)).status === "paid");
    expect((await inboxItems()).filter((item) => item.end_to_end_id === endToEndId)).toEqual([
      expect.objectContaining({ source: "reconciliation", error: null }),
    ]);
    const again = await ops(
      "acquirer:reconcile",
      "efi-bank",
      "--since",
      new Date(Date.now() - 60_000).toISOString(),
      "--json",
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ stored: 0 });
  });

  test("when a live charge is canceled, then the bank removes it first; when the bank has it paid, then 409 and the payment settles it", async () => {
    const open = (await live.post("/v1/transactions", { amount: 3_000 }).expect(201)).body;
    const racing = (await live.post("/v1/transactions", { amount: 3_100 }).expect(201)).body;
    await bank.payCharge(racing.txid, { callback: "drop" });

    const canceled = await live.post(`/v1/transactions/${open.id}/cancel`);
    const refused = await live.post(`/v1/transactions/${racing.id}/cancel`);

    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    expect(bank.charge(open.txid)?.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    expect((await charge(racing.id)).status).toBe("pending");
    await ops("acquirer:reconcile", "efi-bank", "--since", new Date(Date.now() - 60_000).toISOString());
    await waitUntil("the raced charge paid", async () => (await charge(racing.id)).status === "paid");
  });

  test("when a live charge is retried with its Idempotency-Key after the bank timed out, then the bank holds one charge", async () => {
    bank.hangNext(2);
    const first = await live.post("/v1/transactions", { amount: 4_200 }).set("Idempotency-Key", "order-42");

    const second = await live.post("/v1/transactions", { amount: 4_200 }).set("Idempotency-Key", "order-42");

    expect(first.status).toBe(502);
    expect(first.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_unavailable" });
    expect(second.status).toBe(201);
    const puts = bank.requests().filter((r) => r.method === "PUT" && r.path === `/v2/cob/${second.body.txid}`);
    expect(puts.length).toBeGreaterThanOrEqual(1);
    expect(bank.charge(second.body.txid)).toMatchObject({ revisao: 0, valor: { original: "42.00" } });
    expect(await ctx.db.transaction.count({ where: { txid: second.body.txid } })).toBe(1);
  });

  test("when a live refund is asked, then the bank's devolução settles it; an amount the bank refuses fails it and the money comes back", async () => {
    const created = (await live.post("/v1/transactions", { amount: 20_000 }).expect(201)).body;
    await bank.payCharge(created.txid);
    await waitUntil("the charge paid", async () => (await charge(created.id)).status === "paid");

    const refund = (await requestRefund(live, created.id, { amount: 5_000 }).expect(201)).body;
    const refused = (await requestRefund(live, created.id, { amount: 1_013 }).expect(201)).body;

    await waitUntil("the refunds settled", async () => {
      const [a, b] = await Promise.all([refund.id, refused.id].map((id) => live.get(`/v1/refunds/${id}`)));
      return a?.body.status === "succeeded" && b?.body.status === "failed";
    });
    expect((await live.get(`/v1/refunds/${refused.id}`)).body.failure_reason).toBe("rejected_by_acquirer");
    expect((await charge(created.id)).amount_refunded).toBe(5_000);
  });

  test("when a live withdrawal is made, then the bank's payout completes it; one the bank refuses fails and is put back", async () => {
    const before = (await owner.panel.get("/v1/me/balance?mode=live")).body.available;
    const key = await addPayoutKeyAgo(ctx, owner.panel, { type: "evp", key: "0d9f3c55-5b7a-4a6e-9c1d-2f4e6a8b0c13" });
    const withdraw = (amount: number, idempotencyKey: string) =>
      owner.panel
        .post("/v1/me/withdrawals", { amount, payout_key_id: key.id, mode: "live" })
        .set("Idempotency-Key", idempotencyKey)
        .expect(201);

    const completed = (await withdraw(2_000, "live-payout-1")).body;
    const refused = (await withdraw(1_013, "live-payout-2")).body;

    await waitUntil("the withdrawals settled", async () => {
      const [a, b] = await Promise.all(
        [completed.id, refused.id].map((id) => owner.panel.get(`/v1/me/withdrawals/${id}`)),
      );
      return a?.body.status === "completed" && b?.body.status === "failed";
    });
    expect((await owner.panel.get("/v1/me/balance?mode=live")).body).toMatchObject({
      available: before - 2_000,
      reserved: 0,
    });
    expect(bank.requests().filter((r) => r.method === "PUT" && r.path.startsWith("/v3/gn/pix/"))).toHaveLength(2);
  });

  test("when the active bank has the bcb profile, then a withdrawal is 503 acquirer_not_configured and nothing is created", async () => {
    await configure("bcb-bank", "bcb");
    await ops("acquirer:activate", "bcb-bank", "--mode", "live");
    const key = await ctx.db.payoutKey.findFirstOrThrow({ where: { seller_id: owner.seller.id } });
    const count = await ctx.db.withdrawal.count();

    const res = await requestWithdrawal(owner.panel, { amount: 100, payout_key_id: key.id, mode: "live" });

    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("acquirer_not_configured");
    expect(await ctx.db.withdrawal.count()).toBe(count);
  });
});
