/**
 * DESIGN §16 "Delivery controls per endpoint" through the panel API: `ordering`, `rate_limit`, `paused`, custom
 * `headers` (stored encrypted, shown masked, refused with a 400 naming the header) and the `standard_webhooks_ed25519`
 * scheme, whose endpoints show a `whpk_` public key and never a secret.
 */
import { createPublicKey } from "node:crypto";
import { decryptCustomHeaders, decryptSecret, deliveryJobId, ed25519PublicKey } from "@lm/domain";
import { createDeliveryRow, createEventRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { createEndpoint, endpointOwner, type EndpointOwner } from "../support/webhook-endpoints";

const RECEIVER = "http://localhost:9/hooks";
const SECURE_RECEIVER = "https://localhost/hooks";
const PUBLIC_KEY = /^whpk_[A-Za-z0-9+/]{43}=$/;

describe("webhook endpoint delivery controls (DESIGN §16)", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  let owner: EndpointOwner;
  beforeEach(async () => {
    owner = await endpointOwner(ctx);
  });

  /** The 400 `validation_failed` of `res`, with its `param` and message. */
  function expectRefused(res: { status: number; body: { error?: unknown } }, param: string, message: RegExp) {
    expect({ status: res.status, error: res.body.error }).toEqual({
      status: 400,
      error: expect.objectContaining({ code: "validation_failed", param, message: expect.stringMatching(message) }),
    });
  }

  test("when an endpoint is created without controls, then it is unordered, unlimited, not paused and has no headers", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/plain` });

    expect(endpoint).toMatchObject({
      ordering: "none",
      rate_limit: null,
      paused: false,
      headers: {},
      public_key: null,
    });
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ ordering: "none", rate_limit: null, paused: false, headers_ciphertext: null });
  });

  test("when an endpoint is created with every control, then replies show them, the header values masked, and the row holds the headers encrypted", async () => {
    const token = "Bearer lj_live_9a8b7c6d5e4f3a2b1c0d";
    const endpoint = await createEndpoint(owner, {
      url: `${SECURE_RECEIVER}/controlled`,
      ordering: "fifo",
      rate_limit: 20,
      paused: true,
      headers: { Authorization: token, "X-Store": "ana", "X-Empty": "" },
    });

    const shown = {
      ordering: "fifo",
      rate_limit: 20,
      paused: true,
      headers: { Authorization: "****1c0d", "X-Store": "****", "X-Empty": "****" },
    };
    expect(endpoint).toMatchObject(shown);
    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}`).expect(200);
    expect(read.body).toMatchObject(shown);
    const list = await owner.panel.get("/v1/me/webhook-endpoints").expect(200);
    expect(list.body.data[0]).toMatchObject(shown);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.headers_ciphertext).not.toContain("lj_live");
    expect(decryptCustomHeaders(ctx.config.encryptionKey, row.headers_ciphertext, row.id)).toEqual({
      Authorization: token,
      "X-Store": "ana",
      "X-Empty": "",
    });
    // Bound to its column: the ciphertext is not the endpoint's secret under another name.
    expect(() => decryptSecret(ctx.config.encryptionKey, row.headers_ciphertext!, row.id)).toThrow();
  });

  test.each([
    ["0", 0],
    ["1001", 1001],
    ["a fraction", 1.5],
    ["a string", "10"],
  ])("when rate_limit is %s, then 400 validation_failed naming rate_limit", async (_case, value) => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/rate`,
      events: ["*"],
      rate_limit: value,
    });

    expectRefused(res, "rate_limit", /rate_limit/);
  });

  test("when ordering is not none or fifo, then 400 validation_failed naming ordering", async () => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/order`,
      events: ["*"],
      ordering: "lifo",
    });

    expectRefused(res, "ordering", /ordering/);
  });

  test.each([
    "Content-Type",
    "user-agent",
    "Idempotency-Key",
    "X-Signature",
    "X-Event-Id",
    "x-event-type",
    "X-Event-Anything",
    "X-Delivery-Id",
    "X-Attempt",
    "webhook-id",
    "Webhook-Signature",
    "Host",
    "Content-Length",
    "Connection",
    "Transfer-Encoding",
  ])(
    "when a custom header is named %s, then 400 validation_failed naming that header, and nothing is created",
    async (name) => {
      const res = await owner.panel.post("/v1/me/webhook-endpoints", {
        url: `${RECEIVER}/reserved`,
        events: ["*"],
        headers: { "X-Fine": "1", [name]: "x" },
      });

      expectRefused(res, `headers.${name}`, new RegExp(`^${name} is set by the service`));
      expect(await ctx.db.webhookEndpoint.count({ where: { store_id: owner.storeId } })).toBe(0);
    },
  );

  test.each([
    ["a name with a space", { "X Store": "1" }, "headers.X Store"],
    ["a name with an underscore", { X_Store: "1" }, "headers.X_Store"],
    ["a name of 65 characters", { ["X".repeat(65)]: "1" }, `headers.${"X".repeat(65)}`],
    ["a value of 1,025 characters", { "X-Long": "a".repeat(1025) }, "headers.X-Long"],
    ["a value with a newline", { "X-Split": "a\r\nX-Injected: 1" }, "headers.X-Split"],
    ["a value that is not text", { "X-Number": 7 }, "headers.X-Number"],
  ])("when a custom header has %s, then 400 validation_failed naming it", async (_case, headers, param) => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/bad`,
      events: ["*"],
      headers,
    });

    expectRefused(res, param, /headers/);
  });

  test("when 11 custom headers are given, then 400 validation_failed on headers", async () => {
    const headers = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, "v"]));

    const res = await owner.panel.post("/v1/me/webhook-endpoints", { url: `${RECEIVER}/many`, events: ["*"], headers });

    expectRefused(res, "headers", /10/);
  });

  test("when two custom header names differ only in case, then 400 validation_failed naming the second", async () => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/twice`,
      events: ["*"],
      headers: { "X-Store": "a", "x-store": "b" },
    });

    expectRefused(res, "headers.x-store", /given twice/);
  });

  test("when Authorization is given for an http url, then 400 validation_failed naming it; on https it is accepted", async () => {
    const refused = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/auth`,
      events: ["*"],
      headers: { authorization: "Bearer secret-token" },
    });
    const accepted = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${SECURE_RECEIVER}/auth`,
      events: ["*"],
      headers: { authorization: "Bearer secret-token" },
    });

    expectRefused(refused, "headers.authorization", /only to an https url/);
    expect(accepted.status).toBe(201);
    expect(accepted.body.headers).toEqual({ authorization: "****oken" });
  });

  test("when a PATCH merges headers, then strings set (replacing another case), null removes, the rest stay", async () => {
    const endpoint = await createEndpoint(owner, {
      url: `${RECEIVER}/merge`,
      headers: { "X-Keep": "kept-value-0000000001", "X-Drop": "d", "X-Case": "old" },
    });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, {
      headers: { "X-Drop": null, "x-case": "new-value-000000000009", "X-New": "n" },
    });

    expect(res.status).toBe(200);
    expect(res.body.headers).toEqual({ "X-Keep": "****0001", "x-case": "****0009", "X-New": "****" });
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(decryptCustomHeaders(ctx.config.encryptionKey, row.headers_ciphertext, row.id)).toEqual({
      "X-Keep": "kept-value-0000000001",
      "x-case": "new-value-000000000009",
      "X-New": "n",
    });
    const cleared = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, {
      headers: { "X-Keep": null, "x-case": null, "X-New": null },
    });
    expect(cleared.body.headers).toEqual({});
    expect((await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).headers_ciphertext).toBe(
      null,
    );
  });

  test("when a PATCH would make an https endpoint with Authorization http, then 400 naming the header and nothing changes", async () => {
    const endpoint = await createEndpoint(owner, {
      url: `${SECURE_RECEIVER}/downgrade`,
      headers: { Authorization: "Bearer t" },
    });
    const before = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { url: `${RECEIVER}/downgrade` });

    expectRefused(res, "headers.Authorization", /https/);
    expect(await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toEqual(before);
  });

  test("when a PATCH sets and clears the controls, then each reads back as set and the rest stay", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/patch`, headers: { "X-Store": "ana" } });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}`;

    const set = await owner.panel.patch(path, { ordering: "fifo", rate_limit: 5, paused: true }).expect(200);
    const cleared = await owner.panel.patch(path, { rate_limit: null, paused: false }).expect(200);
    const unordered = await owner.panel.patch(path, { ordering: "none" }).expect(200);

    expect(set.body).toMatchObject({ ordering: "fifo", rate_limit: 5, paused: true, headers: { "X-Store": "****" } });
    expect(cleared.body).toMatchObject({ ordering: "fifo", rate_limit: null, paused: false });
    expect(unordered.body).toMatchObject({ ordering: "none", rate_limit: null, paused: false });
  });

  test("when an endpoint is made FIFO, then its pending deliveries join its order and its head gets its turn; other endpoints' stay as they are", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/to-fifo` });
    const other = await createEndpoint(owner, { url: `${RECEIVER}/other` });
    const rowOf = (id: string) => ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    const [first, second] = [
      await createEventRow(ctx.db, { storeId: owner.storeId }),
      await createEventRow(ctx.db, { storeId: owner.storeId }),
    ];
    const waiting = [
      await createDeliveryRow(ctx.db, { event: first!, destination: { endpoint: await rowOf(endpoint.id) } }),
      await createDeliveryRow(ctx.db, {
        event: second!,
        destination: { endpoint: await rowOf(endpoint.id) },
        scheduledAt: new Date(Date.now() + 3_600_000),
      }),
    ];
    const untouched = await createDeliveryRow(ctx.db, {
      event: first!,
      destination: { endpoint: await rowOf(other.id) },
    });

    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { ordering: "fifo" }).expect(200);

    const ordered = await ctx.db.webhookDelivery.findMany({
      where: { id: { in: [...waiting, untouched].map((d) => d.id) } },
    });
    expect(Object.fromEntries(ordered.map((row) => [row.id, row.ordered]))).toEqual({
      [waiting[0]!.id]: true,
      [waiting[1]!.id]: true,
      [untouched.id]: null,
    });
    const turn = await ctx.deps.producer
      .queueFor("webhook-delivery", endpoint.id)
      .getJob(`t${deliveryJobId(waiting[0]!.id)}`);
    expect(turn?.data).toEqual({ deliveries: [deliveryJobId(waiting[0]!.id)] });
  });

  test("when an endpoint is created with standard_webhooks_ed25519, then it shows a whpk_ public key of its private key, and no secret", async () => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/ed25519`,
      events: ["*"],
      signature_scheme: "standard_webhooks_ed25519",
    });

    expect(res.status).toBe(201);
    expect(res.body.secret).toBeUndefined();
    const publicKey: string = res.body.public_key;
    expect(publicKey).toMatch(PUBLIC_KEY);
    expect(res.body.secret_prefix).toBe(publicKey.slice(5, 11));
    // The raw 32-byte key imports as an Ed25519 public key.
    const raw = Buffer.from(publicKey.slice(5), "base64");
    expect(raw).toHaveLength(32);
    const jwk = { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") };
    expect(() => createPublicKey({ key: jwk, format: "jwk" })).not.toThrow();
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    const privateKey = decryptSecret(ctx.config.encryptionKey, row.secret_ciphertext, row.id);
    expect(privateKey).toMatch(/^whsk_[A-Za-z0-9+/]{43}=$/);
    expect(ed25519PublicKey(privateKey)).toBe(publicKey);
    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${res.body.id}`).expect(200);
    expect(read.body).toMatchObject({ signature_scheme: "standard_webhooks_ed25519", public_key: publicKey });
    expect(JSON.stringify(read.body)).not.toContain(privateKey.slice(5));
  });

  test("when an Ed25519 endpoint's key is rotated, then the reply shows the new public key and the grace, no secret, and the old private key is kept", async () => {
    const endpoint = await createEndpoint(owner, {
      url: `${RECEIVER}/ed25519-rotate`,
      signature_scheme: "standard_webhooks_ed25519",
    });
    const before = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });

    const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200);

    expect(res.body.secret).toBeUndefined();
    expect(res.body.public_key).toMatch(PUBLIC_KEY);
    expect(res.body.public_key).not.toBe(endpoint.public_key);
    expect(res.body.secret_prefix).toBe((res.body.public_key as string).slice(5, 11));
    expect(Date.parse(res.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const key = ctx.config.encryptionKey;
    expect(ed25519PublicKey(decryptSecret(key, row.secret_ciphertext, row.id))).toBe(res.body.public_key);
    expect(decryptSecret(key, row.previous_secret_ciphertext!, row.id)).toBe(
      decryptSecret(key, before.secret_ciphertext, before.id),
    );
  });

  test("when a PATCH asks a stripe endpoint for standard_webhooks_ed25519, then 400 naming signature_scheme", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/no-switch` });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, {
      signature_scheme: "standard_webhooks_ed25519",
    });

    expectRefused(res, "signature_scheme", /create a new endpoint/);
  });
});
