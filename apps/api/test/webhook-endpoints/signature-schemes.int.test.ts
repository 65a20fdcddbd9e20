import { decryptSecret } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { createEndpoint, endpointOwner, type EndpointOwner } from "../support/webhook-endpoints";

const RECEIVER = "http://localhost:9/hooks";
const STANDARD_SECRET = /^whsec_[A-Za-z0-9+/]{43}$/;
const STRIPE_SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

/** The 32 key bytes a Standard Webhooks library decodes from `secret`. */
function keyBytes(secret: string): Buffer {
  return Buffer.from(secret.slice("whsec_".length), "base64");
}

describe("webhook endpoint signature schemes (DESIGN §12)", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  let owner: EndpointOwner;
  beforeEach(async () => {
    owner = await endpointOwner(ctx);
  });

  test("when an endpoint is created with signature_scheme standard_webhooks, then it shows the scheme and its secret is whsec_ + 43 characters of unpadded base64 of 32 bytes", async () => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/standard`,
      events: ["*"],
      signature_scheme: "standard_webhooks",
    });

    expect(res.status).toBe(201);
    expect(res.body.signature_scheme).toBe("standard_webhooks");
    const secret: string = res.body.secret;
    expect(secret).toMatch(STANDARD_SECRET);
    expect(keyBytes(secret)).toHaveLength(32);
    expect(res.body.secret_prefix).toBe(secret.slice(6, 12));
    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${res.body.id}`).expect(200);
    expect(read.body.signature_scheme).toBe("standard_webhooks");
    const list = await owner.panel.get("/v1/me/webhook-endpoints").expect(200);
    expect(list.body.data.map((e: { signature_scheme: string }) => e.signature_scheme)).toEqual(["standard_webhooks"]);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.signature_scheme).toBe("standard_webhooks");
    expect(decryptSecret(ctx.config.encryptionKey, row.secret_ciphertext, row.id)).toBe(secret);
  });

  test("when an endpoint is created without a scheme or with stripe, then it is stripe with a base64url secret", async () => {
    const absent = await createEndpoint(owner, { url: `${RECEIVER}/default` });
    const stripe = await createEndpoint(owner, { url: `${RECEIVER}/stripe`, signature_scheme: "stripe" });

    for (const endpoint of [absent, stripe]) {
      expect(endpoint.signature_scheme).toBe("stripe");
      expect(endpoint.secret).toMatch(STRIPE_SECRET);
    }
  });

  test.each([
    ["an unknown name", "hmac"],
    ["a wrongly spelt name", "standard-webhooks"],
    ["another case", "Stripe"],
    ["null", null],
    ["a number", 1],
    ["an empty string", ""],
  ])(
    "when signature_scheme is %s, then 400 validation_failed in the spec envelope and nothing is created",
    async (_case, value) => {
      const res = await owner.panel.post("/v1/me/webhook-endpoints", {
        url: `${RECEIVER}/bad`,
        events: ["*"],
        signature_scheme: value,
      });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          type: "invalid_request_error",
          code: "validation_failed",
          message: expect.stringContaining("signature_scheme"),
          param: "signature_scheme",
          request_id: res.headers["x-request-id"],
        },
      });
      expect(await ctx.db.webhookEndpoint.count({ where: { store_id: owner.storeId } })).toBe(0);
    },
  );

  test("when a PATCH asks for another scheme, then 400 validation_failed says to create a new endpoint, and nothing changes", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/fixed` });
    const before = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, {
      signature_scheme: "standard_webhooks",
      description: "moved",
    });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "validation_failed",
      param: "signature_scheme",
      message: expect.stringContaining("create a new endpoint"),
    });
    expect(await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toEqual(before);
  });

  test("when a PATCH repeats the endpoint's own scheme, then it is accepted and the other fields change", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/same`, signature_scheme: "standard_webhooks" });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, {
      signature_scheme: "standard_webhooks",
      description: "same scheme",
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ signature_scheme: "standard_webhooks", description: "same scheme" });
  });

  test("when a PATCH has a scheme that does not exist, then 400 validation_failed naming signature_scheme", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/unknown` });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { signature_scheme: "svix" });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "signature_scheme" });
  });

  test("when a standard_webhooks endpoint's secret is rotated, then the new secret has that scheme's form and the old one is kept for the grace", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/rotate`, signature_scheme: "standard_webhooks" });

    const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      signature_scheme: "standard_webhooks",
      previous_secret_expires_at: expect.any(String),
    });
    const fresh: string = res.body.secret;
    expect(fresh).toMatch(STANDARD_SECRET);
    expect(keyBytes(fresh)).toHaveLength(32);
    expect(fresh).not.toBe(endpoint.secret);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(decryptSecret(ctx.config.encryptionKey, row.secret_ciphertext, row.id)).toBe(fresh);
    expect(decryptSecret(ctx.config.encryptionKey, row.previous_secret_ciphertext!, row.id)).toBe(endpoint.secret);
  });

  test("when a stripe endpoint's secret is rotated, then the new secret stays base64url", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/rotate-stripe` });

    const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200);

    expect(res.body.signature_scheme).toBe("stripe");
    expect(res.body.secret).toMatch(STRIPE_SECRET);
  });
});
