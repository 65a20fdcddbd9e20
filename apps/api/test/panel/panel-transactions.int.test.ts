/**
 * The panel's charges and events (DESIGN §15), which the dashboard uses: a test charge created and paid with the
 * session, listed and read like the merchant API's, refunded behind a step-up with an `Idempotency-Key`, and the
 * events it raised; live charges are not created here, and another seller's charge is unknown.
 */
import { useApiTestContext } from "../support/harness";
import { processInbox } from "../support/money";
import { signUpWithTwoFactor, stepTime } from "../support/two-factor";
import { endpointOwner, panelClient, type EndpointOwner } from "../support/webhook-endpoints";

describe("the panel's charges, refunds and events", () => {
  const ctx = useApiTestContext();
  let owner: EndpointOwner;

  beforeAll(async () => {
    owner = await endpointOwner(ctx);
  });

  /** A test charge of `amount` created in the panel, paid through the sandbox's inbound path. */
  const paidPanelCharge = async (amount: number) => {
    const created = (await owner.panel.post("/v1/me/transactions", { amount }).expect(201)).body;
    await owner.panel.post(`/v1/me/transactions/${created.id}/simulate-payment`).expect(202);
    await processInbox(ctx);
    return (await owner.panel.get(`/v1/me/transactions/${created.id}`).expect(200)).body;
  };

  test("when the owner creates a test charge in the panel, then it is pending in test mode, listed in test and not in live, and read by its id", async () => {
    const res = await owner.panel.post("/v1/me/transactions", {
      mode: "test",
      amount: 1234,
      description: "Pedido do painel",
      external_id: "painel-1",
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: "transaction", mode: "test", status: "pending", amount: 1234 });
    const listed = (await owner.panel.get("/v1/me/transactions?mode=test&external_id=painel-1").expect(200)).body;
    expect(listed.data.map((charge: { id: string }) => charge.id)).toEqual([res.body.id]);
    expect((await owner.panel.get("/v1/me/transactions?mode=live").expect(200)).body.data).toEqual([]);
    expect((await owner.panel.get(`/v1/me/transactions/${res.body.id}`).expect(200)).body).toEqual(res.body);
  });

  test("when the body asks for a live charge, then 403 test_mode_only and nothing is created", async () => {
    const res = await owner.panel.post("/v1/me/transactions", { mode: "live", amount: 500, external_id: "live-1" });

    expect([res.status, res.body.error.code]).toEqual([403, "test_mode_only"]);
    expect(await ctx.db.transaction.count({ where: { external_id: "live-1" } })).toBe(0);
  });

  test("when another seller's owner reads, pays or lists refunds of the charge, then 404 resource_not_found", async () => {
    const charge = (await owner.panel.post("/v1/me/transactions", { amount: 700 }).expect(201)).body;
    const stranger = await signUpWithTwoFactor(ctx, stepTime());
    const other = panelClient(ctx, stranger.cookie);

    const replies = await Promise.all([
      other.get(`/v1/me/transactions/${charge.id}`),
      other.post(`/v1/me/transactions/${charge.id}/simulate-payment`),
      other.get(`/v1/me/transactions/${charge.id}/refunds`),
    ]);

    expect(replies.map((res) => [res.status, res.body.error?.code])).toEqual([
      [404, "resource_not_found"],
      [404, "resource_not_found"],
      [404, "resource_not_found"],
    ]);
    expect((await other.get("/v1/me/transactions").expect(200)).body.data).toEqual([]);
  });

  test("when a test charge is paid from the panel, then it reads paid, a second payment is 409, and its events are listed by mode and type", async () => {
    const charge = await paidPanelCharge(2500);

    expect(charge.status).toBe("paid");
    const again = await owner.panel.post(`/v1/me/transactions/${charge.id}/simulate-payment`);
    expect([again.status, again.body.error.code]).toEqual([409, "invalid_state"]);
    const events = (await owner.panel.get("/v1/me/events?mode=test&type=transaction.paid").expect(200)).body;
    expect(events.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toContain(charge.id);
    expect(events.data[0]).toMatchObject({ object: "event", type: "transaction.paid", mode: "test" });
    expect((await owner.panel.get("/v1/me/events?mode=live").expect(200)).body.data).toEqual([]);
    const typo = await owner.panel.get("/v1/me/events?type=transaction.payed");
    expect([typo.status, typo.body.error.code]).toEqual([400, "invalid_event_type"]);
  });

  test("when a stepped-up owner refunds with an Idempotency-Key, then 201 pending, listed under the charge, and the same key replays the same refund", async () => {
    const charge = await paidPanelCharge(3000);
    const refund = () =>
      owner.panel
        .post(`/v1/me/transactions/${charge.id}/refunds`, { amount: 1000, reason: "Cliente desistiu" })
        .set("Idempotency-Key", `panel-refund-${charge.id}`);

    const first = await refund();
    const replay = await refund();

    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: "refund", transaction_id: charge.id, amount: 1000, status: "pending" });
    expect([replay.status, replay.body.id, replay.headers["idempotent-replayed"]]).toEqual([
      201,
      first.body.id,
      "true",
    ]);
    const listed = (await owner.panel.get(`/v1/me/transactions/${charge.id}/refunds`).expect(200)).body;
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([first.body.id]);
  });

  test("when a refund has no Idempotency-Key, then 400 naming the header", async () => {
    const charge = await paidPanelCharge(1500);

    const res = await owner.panel.post(`/v1/me/transactions/${charge.id}/refunds`, { amount: 100 });

    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([
      400,
      "validation_failed",
      "Idempotency-Key",
    ]);
  });

  test("when the session has no step-up, then a refund is 403 mfa_required and none is written", async () => {
    const enrolled = await signUpWithTwoFactor(ctx, stepTime());
    ctx.deps.now = () => new Date();
    const panel = panelClient(ctx, enrolled.cookie);
    const charge = (await panel.post("/v1/me/transactions", { amount: 900 }).expect(201)).body;
    await panel.post(`/v1/me/transactions/${charge.id}/simulate-payment`).expect(202);
    await processInbox(ctx);

    const res = await panel.post(`/v1/me/transactions/${charge.id}/refunds`, {}).set("Idempotency-Key", "no-step-up");

    expect([res.status, res.body.error.code]).toEqual([403, "mfa_required"]);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(0);
  });
});
