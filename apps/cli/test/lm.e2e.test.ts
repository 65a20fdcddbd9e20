/**
 * `lm listen` and `lm trigger` as an integrator runs them: the command line in its own process, against the API on a
 * real port with the worker running, forwarding to a real local receiver; signatures checked by Stripe's and the
 * Standard Webhooks' own libraries.
 */
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { amountDue, newId, readSellerDocument, saoPauloDate } from "@lm/domain";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import {
  createTestMerchant,
  REPO_ROOT,
  startWatchedProcess,
  startWebhookReceiver,
  waitUntil,
  type WatchedProcess,
  type WebhookReceiver,
} from "@lm/testing";
import { useE2eTestContext } from "../../api/test/e2e/support/e2e-harness";
import { chargeBody, merchantClient } from "../../api/test/support/merchant-client";

const LM = path.join(__dirname, "..", "bin", "lm.cjs");

/** `lm` started with `args` as its own process. */
function runLm(args: string[]): WatchedProcess {
  return startWatchedProcess(process.execPath, [LM, ...args], { cwd: REPO_ROOT, env: process.env });
}

/** The non-empty lines `lm` printed, both outputs together. */
const linesOf = (lm: WatchedProcess) => lm.output().split("\n").filter(Boolean);

describe("lm, the integrator's command line", () => {
  const ctx = useE2eTestContext();
  let server: Server;
  let apiUrl: string;
  let port: number;
  let testKey: string;
  let liveKey: string;
  let receiver: WebhookReceiver;
  const sockets = new Set<Socket>();
  const running: WatchedProcess[] = [];

  const serve = async (onPort = 0) => {
    server = ctx.app.listen(onPort, "127.0.0.1");
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stopServing = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const lm = (args: string[]) => {
    const started = runLm([...args, "--api-url", apiUrl]);
    running.push(started);
    return started;
  };
  const listen = async (args: string[] = [], forwardPath = "/hooks") => {
    const listener = lm(["listen", "--api-key", testKey, "--forward-to", `${receiver.url}${forwardPath}`, ...args]);
    const [, secret] = await listener.waitFor(/signing secret is (whsec_\S+)/);
    return { listener, secret: secret! };
  };
  const delivered = (forwardPath: string) =>
    receiver.requestsTo(forwardPath).map((request) => JSON.parse(request.rawBody.toString("utf8")));

  beforeAll(async () => {
    await serve();
    apiUrl = `http://127.0.0.1:${port}`;
    const merchant = await createTestMerchant(ctx.db);
    ({ testKey, liveKey } = merchant);
    // The payout key a test withdrawal goes to by default, the seller's own document (added in the panel in life).
    const seller = await ctx.db.seller.findUniqueOrThrow({ where: { id: merchant.sellerId } });
    const document = readSellerDocument(ctx.config.encryptionKey, seller);
    await ctx.db.payoutKey.create({
      data: { id: newId("payoutKey"), seller_id: seller.id, type: document.kind, key: null, key_masked: "***" },
    });
    receiver = await startWebhookReceiver();
  });

  afterEach(async () => {
    for (const started of running.splice(0)) {
      started.child.kill("SIGINT");
      await started.exited;
    }
  });

  afterAll(async () => {
    await receiver.close();
    await stopServing();
  });

  test("when lm listen starts, then it also forwards the events of the 10 s before, so a trigger fired while it starts is not missed", async () => {
    const merchant = merchantClient(ctx.app, testKey);
    const txn = (await merchant.post("/v1/transactions", chargeBody()).expect(201)).body;

    await listen(["--events", "transaction.created"], "/lookback");
    await receiver.waitForRequests(1, { path: "/lookback" });

    expect(delivered("/lookback").map((event) => event.data.object.id)).toContain(txn.id);
  });

  test("when a charge is paid while lm listen runs, then each event arrives within 1 s, verified by Stripe's library with the printed secret", async () => {
    const { secret } = await listen([], "/paid");
    const printed = runLm(["listen", "--print-secret", "--api-key", testKey]);
    expect(await printed.exited).toBe(0);

    const merchant = merchantClient(ctx.app, testKey);
    const txn = (await merchant.post("/v1/transactions", chargeBody()).expect(201)).body;
    await merchant.post(`/v1/transactions/${txn.id}/simulate-payment`).expect(202);
    const ofCharge = () =>
      receiver.requestsTo("/paid").filter((r) => JSON.parse(r.rawBody.toString("utf8")).data.object.id === txn.id);
    await waitUntil("both events of the charge", () => ofCharge().length === 2);

    expect(linesOf(printed)).toEqual([secret]);
    const stripe = new Stripe("sk_test_unused");
    const requests = ofCharge();
    expect(requests.map((r) => r.headers["x-event-type"])).toEqual(["transaction.created", "transaction.paid"]);
    for (const request of requests) {
      const body = request.rawBody.toString("utf8");
      const event = stripe.webhooks.constructEvent(body, request.headers["x-signature"] as string, secret);
      expect(event.id).toBe(request.headers["x-event-id"]);
      expect((event.data.object as { id: string }).id).toBe(txn.id);
      expect(
        request.receivedAt.getTime() - Date.parse((event as unknown as { created_at: string }).created_at),
      ).toBeLessThan(1_000);
    }
    expect(() => stripe.webhooks.constructEvent(requests[0]!.rawBody.toString(), "t=1,v1=00", secret)).toThrow();
  });

  test("when lm listen runs with --signature-scheme standard_webhooks, then the Standard Webhooks library verifies each event", async () => {
    const { secret } = await listen(
      ["--signature-scheme", "standard_webhooks", "--events", "transaction.canceled"],
      "/std",
    );

    const merchant = merchantClient(ctx.app, testKey);
    const txn = (await merchant.post("/v1/transactions", chargeBody()).expect(201)).body;
    await merchant.post(`/v1/transactions/${txn.id}/cancel`).expect(200);
    const [request] = await receiver.waitForRequests(1, { path: "/std" });

    const verified = new Webhook(secret).verify(
      request!.rawBody.toString("utf8"),
      request!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ type: "transaction.canceled", data: { object: { id: txn.id } } });
    expect(delivered("/std").map((event) => event.type)).toEqual(["transaction.canceled"]);
  });

  test("when the API goes away and comes back, then lm listen forwards every event created meanwhile, once each", async () => {
    const { listener } = await listen([], "/resume");
    const merchant = merchantClient(ctx.app, testKey);

    await stopServing();
    await listener.waitFor(/Lost the connection/);
    const created = [];
    for (let i = 0; i < 5; i += 1)
      created.push((await merchant.post("/v1/transactions", chargeBody()).expect(201)).body);
    await serve(port);
    await listener.waitFor(/Reconnected/);
    await receiver.waitForRequests(5, { path: "/resume" });
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const events = delivered("/resume");
    const createdIds = new Set(created.map((txn) => txn.id));
    const ours = events.filter((event) => event.type === "transaction.created" && createdIds.has(event.data.object.id));
    expect(ours.map((event) => event.data.object.id)).toEqual(created.map((txn) => txn.id));
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  test.each([
    ["transaction.paid"],
    ["transaction.expired"],
    ["transaction.canceled"],
    ["refund.succeeded"],
    ["withdrawal.completed"],
    ["dispute.created"],
    ["recurrence.approved"],
    ["transaction.failed"],
  ])(
    "when lm trigger %s runs, then lm listen forwards that event",
    async (type) => {
      const forwardPath = `/trigger/${type}`;
      await listen(["--events", type], forwardPath);

      const startedAt = Date.now();
      const triggered = lm(["trigger", type, "--api-key", testKey]);

      expect(await triggered.exited).toBe(0);
      expect(linesOf(triggered).at(-1)).toMatch(/Trigger succeeded/);
      // A listener also forwards the 10 s before it started: an earlier test's event of this type may come first.
      await waitUntil(`a ${type} created by the trigger`, () =>
        delivered(forwardPath).find((event) => Date.parse(event.created_at) >= startedAt - 1_000),
      );
      expect(delivered(forwardPath).every((event) => event.type === type)).toBe(true);
      // A trigger is a command line started afresh plus a few API calls and the worker's jobs (for transaction.failed,
      // a test clock's advance): seconds on a busy machine.
    },
    20_000,
  );

  test("when lm trigger transaction.paid --late-days 3 runs, then the forwarded event is a due-date charge paid with a fine and interest", async () => {
    const forwardPath = "/trigger/late";
    await listen(["--events", "transaction.paid"], forwardPath);

    const startedAt = Date.now();
    const triggered = lm(["trigger", "transaction.paid", "--late-days", "3", "--api-key", testKey]);

    expect(await triggered.exited).toBe(0);
    const event = await waitUntil("the late payment's transaction.paid", () =>
      delivered(forwardPath).find(
        (candidate) =>
          Date.parse(candidate.created_at) >= startedAt - 1_000 && candidate.data.object.type === "due_date",
      ),
    );
    // R$ 15,00 due today: a 2 % fine (30) and 1 % a month for the calendar days late (3 from a business day:
    // 15.00 × 0.01 × 3 / 30 = 0.015 → 2 centavos); counted by the money math when today is not a business day.
    const today = saoPauloDate(new Date());
    const { total, ...parts } = amountDue(
      {
        original: 1500,
        due_date: today,
        fine: { type: "percent", value: "2.00" },
        interest: { type: "percent_per_month", days: "calendar", value: "1.00" },
      },
      saoPauloDate(new Date(Date.now() + 3 * 86_400_000)),
    );
    expect(event.data.object.payment).toMatchObject({ amount: total, components: parts });
    expect(parts.fine).toBe(30);
  });

  test("when given a live key, then lm refuses it before any request", async () => {
    const before = receiver.requests.length;
    const refused = lm(["listen", "--api-key", liveKey, "--forward-to", `${receiver.url}/live`]);

    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/test mode only/);
    expect(receiver.requests.length).toBe(before);
  });

  test("when --events names an unknown type, then lm stops with the API's invalid_event_type", async () => {
    const refused = lm([
      "listen",
      "--api-key",
      testKey,
      "--forward-to",
      `${receiver.url}/x`,
      "--events",
      "transaction.payed",
    ]);

    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/invalid_event_type/);
  });
});
