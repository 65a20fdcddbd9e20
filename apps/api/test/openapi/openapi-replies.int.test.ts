import request from "supertest";
import { notifySeller, signatureHeader, sandboxAcquirerSecret } from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import {
  cookiePair,
  makeInvite,
  PANEL_ORIGIN,
  PASSWORD,
  signInOps,
  signInRequest,
  tokenInMail,
  uniqueEmail,
  waitForMail,
} from "../support/panel";
import { useDocumentedReplies } from "../support/schema-conformance";
import { codeAt, panelPost, setClock, signUpWithTwoFactor, stepTime } from "../support/two-factor";
import { endpointOwner } from "../support/webhook-endpoints";

/**
 * Real replies against the schemas openapi.json documents for them (serializers are the truth; the document must
 * follow): each documented success schema, and error envelopes, at least once.
 */
describe("openapi.json reply schemas", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const merchant = useTestMerchant(ctx);
  const expectDocumented = useDocumentedReplies(ctx);

  test("when the probes answer, then /health and /ready match their schemas", async () => {
    expectDocumented("GET /health", await request(ctx.app).get("/health"), 200);
    expectDocumented("GET /ready", await request(ctx.app).get("/ready"), 200);
  });

  test("when an owner signs up, signs in and reads the account, then each reply matches its schema", async () => {
    const email = uniqueEmail();
    const { token, seller } = await makeInvite(ctx, email);
    expectDocumented(
      "GET /v1/me/auth/invites/{token}",
      await request(ctx.app).get(`/v1/me/auth/invites/${token}`),
      200,
    );
    const signUp = { name: "Ana Lima", email, password: PASSWORD, accept_terms: true, invite_token: token };
    expectDocumented(
      "POST /v1/me/auth/sign-up/email",
      await request(ctx.app).post("/v1/me/auth/sign-up/email").send(signUp),
      200,
    );
    const signedIn = await signInRequest(ctx, { email, password: PASSWORD });
    expectDocumented("POST /v1/me/auth/sign-in/email", signedIn, 200);
    const cookie = cookiePair(signedIn, "lm.session");
    await notifySeller(ctx.deps.repos, {
      sellerId: seller.id,
      type: "a.b",
      title: "T",
      message: "M",
      data: { id: "x", n: 1 },
    });

    const get = (path: string) => request(ctx.app).get(path).set("Cookie", cookie);
    expectDocumented("GET /v1/me/sessions", await get("/v1/me/sessions"), 200);
    expectDocumented("GET /v1/me/notifications", await get("/v1/me/notifications"), 200);
    expectDocumented("GET /v1/me/security/step-up-prefs", await get("/v1/me/security/step-up-prefs"), 200);
    expectDocumented(
      "POST /v1/me/terms/accept",
      await panelPost(ctx, "/v1/me/terms/accept", cookie, { version: ctx.config.termsVersion }),
      204,
    );
    expectDocumented("POST /v1/me/auth/sign-out", await panelPost(ctx, "/v1/me/auth/sign-out", cookie, {}), 200);
  });

  test("when an owner uses two-factor, step-up and recovery, then each reply matches its schema", async () => {
    const owner = await signUpWithTwoFactor(ctx, stepTime(0));
    setClock(ctx, stepTime(1));
    const stepUp = await panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, {
      code: codeAt(owner.totp, stepTime(1)),
      password: owner.password,
    });
    expectDocumented("POST /v1/me/auth/step-up", stepUp, 200);
    const prefs = await request(ctx.app)
      .put("/v1/me/security/step-up-prefs")
      .set("Cookie", owner.cookie)
      .set("Origin", PANEL_ORIGIN)
      .send({ webhook: false });
    expectDocumented("PUT /v1/me/security/step-up-prefs", prefs, 200);
    const codes = await panelPost(ctx, "/v1/me/auth/two-factor/generate-backup-codes", owner.cookie, {
      password: owner.password,
    });
    expectDocumented("POST /v1/me/auth/two-factor/generate-backup-codes", codes, 200);
    expectDocumented(
      "POST /v1/me/auth/sign-in/email",
      await signInRequest(ctx, { email: owner.email, password: owner.password }),
      200,
    );

    const asked = await request(ctx.app)
      .post("/v1/me/auth/two-factor/recovery/request")
      .send({ email: owner.email, password: owner.password });
    expectDocumented("POST /v1/me/auth/two-factor/recovery/request", asked, 200);
    const token = tokenInMail(await waitForMail(ctx, owner.email, /Recover access/));
    const confirmed = await request(ctx.app).post("/v1/me/auth/two-factor/recovery/confirm").send({ token });
    expectDocumented("POST /v1/me/auth/two-factor/recovery/confirm", confirmed, 200);
  });

  test("when an owner manages API keys and the postback secret, then each reply matches its schema", async () => {
    const owner = await endpointOwner(ctx);

    const created = await owner.panel.post("/v1/me/api-keys", { name: "Loja", mode: "test" });
    expectDocumented("POST /v1/me/api-keys", created, 201);
    expectDocumented("GET /v1/me/api-keys", await owner.panel.get("/v1/me/api-keys"), 200);
    const rotated = await owner.panel.post(`/v1/me/api-keys/${String(created.body.id)}/rotate`);
    expectDocumented("POST /v1/me/api-keys/{id}/rotate", rotated, 201);
    expectDocumented(
      "DELETE /v1/me/api-keys/{id}",
      await owner.panel.delete(`/v1/me/api-keys/${String(rotated.body.id)}`),
      204,
    );
    expectDocumented("GET /v1/me/postback-secret", await owner.panel.get("/v1/me/postback-secret"), 200);
    expectDocumented(
      "POST /v1/me/postback-secret/rotate",
      await owner.panel.post("/v1/me/postback-secret/rotate"),
      200,
    );
  });

  test("when an owner manages a webhook endpoint and its deliveries, then each reply matches its schema", async () => {
    const { panel } = await endpointOwner(ctx);

    const created = await panel.post("/v1/me/webhook-endpoints", {
      url: "http://localhost:9/hooks",
      events: ["*"],
      description: "Loja",
    });
    expectDocumented("POST /v1/me/webhook-endpoints", created, 201);
    const at = `/v1/me/webhook-endpoints/${String(created.body.id)}`;
    expectDocumented("GET /v1/me/webhook-endpoints", await panel.get("/v1/me/webhook-endpoints?mode=test"), 200);
    expectDocumented("GET /v1/me/webhook-endpoints/{id}", await panel.get(at), 200);
    expectDocumented("PATCH /v1/me/webhook-endpoints/{id}", await panel.patch(at, { enabled: false }), 200);
    expectDocumented("GET /v1/me/event-types", await panel.get("/v1/me/event-types"), 200);
    const ping = await panel.post(`${at}/ping`);
    expectDocumented("POST /v1/me/webhook-endpoints/{id}/ping", ping, 202);
    expectDocumented("GET /v1/me/webhook-endpoints/{id}/deliveries", await panel.get(`${at}/deliveries`), 200);
    expectDocumented("GET /v1/me/webhook-endpoints/{id}/stats", await panel.get(`${at}/stats`), 200);
    const resent = await panel.post(`/v1/me/webhook-deliveries/${String(ping.body.id)}/resend`);
    expectDocumented("POST /v1/me/webhook-deliveries/{id}/resend", resent, 202);
    expectDocumented("POST /v1/me/webhook-endpoints/{id}/rotate-secret", await panel.post(`${at}/rotate-secret`), 200);
    expectDocumented("DELETE /v1/me/webhook-endpoints/{id}", await panel.delete(at), 204);
  });

  test("when a merchant creates, reads, lists, cancels and pays charges, then each reply matches its schema", async () => {
    const { client } = merchant;
    const created = await client.post("/v1/transactions", chargeBody());
    expectDocumented("POST /v1/transactions", created, 201);
    const id = String(created.body.id);
    expectDocumented("GET /v1/transactions/{id}", await client.get(`/v1/transactions/${id}`), 200);
    expectDocumented("GET /v1/transactions", await client.get("/v1/transactions?limit=2"), 200);
    expectDocumented("POST /v1/transactions/{id}/cancel", await client.post(`/v1/transactions/${id}/cancel`), 200);
    const other = await client.post("/v1/transactions", { amount: 500 });
    expectDocumented(
      "POST /v1/transactions/{id}/simulate-payment",
      await client.post(`/v1/transactions/${String(other.body.id)}/simulate-payment`),
      202,
    );

    const events = await client.get("/v1/events");
    expectDocumented("GET /v1/events", events, 200);
    expectDocumented("GET /v1/events/{id}", await client.get(`/v1/events/${String(events.body.data[0].id)}`), 200);
  });

  test("when an acquirer notifies and an operator reads and reprocesses the item, then each reply matches its schema", async () => {
    const txn = (await merchant.client.post("/v1/transactions", { amount: 700 }).expect(201)).body;
    const body = JSON.stringify({
      pix: [
        {
          endToEndId: `E${Date.now()}`,
          txid: txn.txid,
          valor: valorFromCentavos(700),
          horario: new Date().toISOString(),
        },
      ],
    });
    const secret = sandboxAcquirerSecret(ctx.config.encryptionKey);
    const received = await request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", signatureHeader([secret], Math.floor(Date.now() / 1000), body))
      .send(body);
    expectDocumented("POST /v1/acquirers/{slug}/notifications", received, 200);

    const { cookie } = await signInOps(ctx);
    const list = await request(ctx.app).get("/v1/ops/inbox").set("Cookie", cookie);
    expectDocumented("GET /v1/ops/inbox", list, 200);
    const itemId = String(list.body.data[0].id);
    expectDocumented(
      "GET /v1/ops/inbox/{id}",
      await request(ctx.app).get(`/v1/ops/inbox/${itemId}`).set("Cookie", cookie),
      200,
    );
    const reprocessed = await request(ctx.app)
      .post(`/v1/ops/inbox/${itemId}/reprocess`)
      .set("Cookie", cookie)
      .set("Origin", PANEL_ORIGIN);
    expectDocumented("POST /v1/ops/inbox/{id}/reprocess", reprocessed, 202);
  });

  test("when requests fail, then each error envelope matches the documented code's schema", async () => {
    expectDocumented("POST /v1/transactions", await merchant.client.post("/v1/transactions", { amount: "100" }), 400);
    expectDocumented("GET /v1/transactions/{id}", await merchant.client.get("/v1/transactions/txn_nothing"), 404);
    expectDocumented("GET /v1/events", await request(ctx.app).get("/v1/events"), 401);
    expectDocumented(
      "POST /v1/me/auth/sign-in/email",
      await signInRequest(ctx, { email: uniqueEmail(), password: "wrong password" }),
      401,
    );
    const notJson = await request(ctx.app).post("/v1/me/auth/sign-out").set("Content-Type", "text/plain").send("x");
    expectDocumented("POST /v1/me/auth/sign-out", notJson, 415);
  });
});
