/**
 * Text PostgreSQL cannot store, and paths that do not decode, are refused at the door with
 * 400 `validation_failed` in the envelope, never a 500, and never at another user's expense.
 */
import { gzipSync } from "node:zlib";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { freshIp, signUpOwner } from "../support/panel";

describe("text the database cannot store", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const merchant = useTestMerchant(ctx);

  const expectRefused = (res: request.Response, param: string | undefined) => {
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "validation_failed" });
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.request_id).toBe(res.headers["x-request-id"]);
  };

  test.each([
    ["a NUL in the description", { description: "a\u0000b" }, "description"],
    [
      "a lone high surrogate in a customer name",
      { customer: { name: "\ud800", document: "52998224725" } },
      "customer.name",
    ],
    ["a lone low surrogate in a metadata value", { metadata: { order: "x\udc00" } }, "metadata.order"],
    ["a NUL in a metadata key", { metadata: { "or\u0000der": "1" } }, "metadata.or\ufffdder"],
  ])(
    "when a charge body holds %s, then 400 validation_failed naming the field and no charge",
    async (_label, fields, param) => {
      const before = await ctx.db.transaction.count();

      const res = await merchant.client.post("/v1/transactions", chargeBody(fields));

      expectRefused(res, param);
      expect(await ctx.db.transaction.count()).toBe(before);
    },
  );

  test("when a body nests arrays 40,000 deep around a NUL, then 400 validation_failed, not a stack overflow", async () => {
    const body = `${"[".repeat(40_000)}"\\u0000"${"]".repeat(40_000)}`;

    const res = await merchant.client.post("/v1/transactions").set("Content-Type", "application/json").send(body);

    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
  });

  test.each(["gzip", "deflate", "br"])(
    "when a body says Content-Encoding %s but does not inflate, then 400 validation_failed, not 500",
    async (encoding) => {
      const charge = await merchant.client
        .post("/v1/transactions")
        .set("Content-Type", "application/json")
        .set("Content-Encoding", encoding)
        .send('{"amount":100}');
      const inbound = await request(ctx.app)
        .post("/v1/acquirers/sandbox/notifications")
        .set("Content-Encoding", encoding)
        .send('{"pix":[]}');

      expectRefused(charge, undefined);
      expectRefused(inbound, undefined);
    },
  );

  test("when a notification body is sent gzip-compressed, then its inflated bytes are stored", async () => {
    const body = '{"pix":[]}';

    const res = await request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "application/json")
      .set("Content-Encoding", "gzip")
      .serialize((bytes: Buffer) => bytes as unknown as string)
      .send(gzipSync(body));

    expect(res.status).toBe(200);
    const item = await ctx.db.inboxItem.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(Buffer.from(item.raw_body).toString("utf8")).toBe(body);
  });

  test("when a surrogate pair (an emoji) is sent, then it is stored as it is", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody({ description: "Pedido \ud83d\ude00" }));

    expect(res.status).toBe(201);
    expect(res.body.description).toBe("Pedido 😀");
  });

  test.each([
    ["/v1/transactions?external_id=%00", "external_id"],
    ["/v1/transactions?status=pending&external_id=a&external_id=b%00", "external_id.1"],
    ["/v1/events?type=%00", "type"],
  ])("when the query %s holds a NUL, then 400 validation_failed naming it", async (path, param) => {
    expectRefused(await merchant.client.get(path), param);
  });

  test.each([
    "/v1/transactions/%E0%A4%A",
    "/v1/transactions/%FF",
    "/v1/transactions/%C0%AE",
    "/v1/transactions/txn_%00",
    "/v1/events/%ED%A0%80",
    "/v1/me/api-keys/%FF/rotate",
    "/v1/no-such-route/%FF",
  ])("when the path %s does not decode to storable text, then 400 validation_failed", async (path) => {
    expectRefused(await merchant.client.get(path), undefined);
  });

  test("when an acquirer slug does not decode, then 400 and nothing is stored", async () => {
    const before = await ctx.db.inboxItem.count();

    const res = await request(ctx.app)
      .post("/v1/acquirers/%FF/notifications")
      .set("Content-Type", "application/json")
      .send("{}");

    expectRefused(res, undefined);
    expect(await ctx.db.inboxItem.count()).toBe(before);
  });

  test("when a sign-in email holds a lone surrogate among concurrent sign-ins, then only it fails and every other user signs in", async () => {
    const owners = await Promise.all(Array.from({ length: 12 }, () => signUpOwner(ctx)));
    const signIn = (body: Record<string, unknown>) =>
      request(ctx.app).post("/v1/me/auth/sign-in/email").set("X-Forwarded-For", freshIp()).send(body);

    const [hostile, ...replies] = await Promise.all([
      signIn({ email: "\ud800@x.com", password: "whatever whatever" }),
      ...owners.map((owner) => signIn({ email: owner.email, password: owner.password })),
    ]);

    expectRefused(hostile!, "email");
    expect(replies.map((r) => r.status)).toEqual(owners.map(() => 200));
  });

  test("when a user agent holds bytes outside ASCII, then the session keeps a storable copy", async () => {
    const owner = await signUpOwner(ctx);

    const res = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .set("X-Forwarded-For", freshIp())
      .set("User-Agent", `Navegador/1.0 ${"\u00ff".repeat(600)}`)
      .send({ email: owner.email, password: owner.password });

    expect(res.status).toBe(200);
    const session = await ctx.db.session.findFirstOrThrow({
      where: { user_id: owner.user.id },
      orderBy: { created_at: "desc" },
    });
    expect(session.user_agent).toHaveLength(512);
  });
});
