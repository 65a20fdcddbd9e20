import request from "supertest";
import { makeParkedDueNow, waitUntil, useWebhookReceiver } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { signedBy } from "../support/receiver-signature";
import { chargeBody, merchantClient } from "../support/merchant-client";
import { PANEL_ORIGIN } from "../support/panel";
import { signUpSteppedUp } from "../support/two-factor";

describe("postback secret rotation and deliveries", () => {
  // Retries wait 10 minutes (their jobs parked), so the test decides when the next attempt runs (by making it due).
  const ctx = useE2eTestContext({ RETRY_SCHEDULE_SECONDS: "600,600,600,600,600" });
  const receiver = useWebhookReceiver();

  test("when the secret is rotated between two attempts, then the next attempt verifies with the new secret only", async () => {
    const owner = await signUpSteppedUp(ctx);
    const panelPost = (path: string, body?: object) =>
      request(ctx.app).post(path).set("Cookie", owner.cookie).set("Origin", PANEL_ORIGIN).send(body);
    const oldSecret = (await panelPost("/v1/me/postback-secret/rotate").expect(200)).body.secret as string;
    const key = (await panelPost("/v1/me/api-keys", { name: "shop", mode: "test" }).expect(201)).body.key as string;
    const merchant = merchantClient(ctx.app, key);
    receiver.current.script("/postback", [{ status: 200 }, { status: 500 }, { status: 200 }]);
    const charge = (
      await merchant
        .post("/v1/transactions", chargeBody({ postback_url: `${receiver.current.url}/postback` }))
        .expect(201)
    ).body;
    const [created] = await receiver.current.waitForRequests(1, { path: "/postback" });
    await merchant.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);
    const failedPaid = (await receiver.current.waitForRequests(2, { path: "/postback" }))[1]!;
    await waitUntil(
      "the retry of transaction.paid parked",
      async () => (await ctx.worker.producer.countParked()) === 1,
    );

    const newSecret = (await panelPost("/v1/me/postback-secret/rotate").expect(200)).body.secret as string;
    await makeParkedDueNow(ctx.worker);
    const retried = (await receiver.current.waitForRequests(3, { path: "/postback" }))[2]!;

    expect(created!.headers["x-event-type"]).toBe("transaction.created");
    expect(signedBy(oldSecret, created!)).toBe(true);
    expect([failedPaid.headers["x-event-type"], failedPaid.headers["x-attempt"]]).toEqual(["transaction.paid", "1"]);
    expect(signedBy(oldSecret, failedPaid)).toBe(true);
    expect([retried.headers["x-event-type"], retried.headers["x-attempt"]]).toEqual(["transaction.paid", "2"]);
    expect(retried.headers["x-event-id"]).toBe(failedPaid.headers["x-event-id"]);
    expect(String(retried.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signedBy(newSecret, retried)).toBe(true);
    expect(signedBy(oldSecret, retried)).toBe(false);
  });
});
