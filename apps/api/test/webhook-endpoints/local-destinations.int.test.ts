import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { endpointOwner } from "../support/webhook-endpoints";

/**
 * With `WEBHOOK_ALLOW_LOCAL_DESTINATIONS` off (its default), a webhook URL on the developer's own machine is refused,
 * and the refusal names the setting that admits it outside production (DESIGN §6).
 */
describe("local webhook destinations while they are not allowed", () => {
  const ctx = useApiTestContext({ WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "false" });
  const merchant = useTestMerchant(ctx, { postbackSecret: true });

  test.each([
    ["http on localhost", "http://localhost:4000/hooks"],
    ["a loopback address", "https://127.0.0.1/hooks"],
    ["plain http", "http://hooks.example.com/pix"],
  ])(
    "when an endpoint's url is %s, then 400 invalid_url naming WEBHOOK_ALLOW_LOCAL_DESTINATIONS, and no endpoint is made",
    async (_situation, url) => {
      const owner = await endpointOwner(ctx);

      const res = await owner.panel.post("/v1/me/webhook-endpoints", { url, events: ["*"] });

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_url", param: "url" });
      expect(res.body.error.message).toContain("for local testing, start the server with");
      expect(res.body.error.message).toContain("WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true");
      expect(res.body.error.message).toContain("refused in production");
      expect(await ctx.db.webhookEndpoint.count({ where: { store_id: owner.storeId } })).toBe(0);
    },
  );

  test("when a charge's postback_url is on localhost, then 400 invalid_url (param postback_url) naming the setting, and no charge is made", async () => {
    const before = await ctx.db.transaction.count();

    const res = await merchant.client.post(
      "/v1/transactions",
      chargeBody({ postback_url: "http://localhost:4000/pix" }),
    );

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_url", param: "postback_url" });
    expect(res.body.error.message).toMatch(/^Invalid postback_url: url must use https \(for local testing/);
    expect(res.body.error.message).toContain("WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true");
    expect(await ctx.db.transaction.count()).toBe(before);
  });

  test("when the url is a private address the setting would not admit either, then the refusal does not name it", async () => {
    const owner = await endpointOwner(ctx);

    const res = await owner.panel.post("/v1/me/webhook-endpoints", { url: "https://10.0.0.8/hooks", events: ["*"] });

    expect([res.status, res.body.error.code]).toEqual([400, "invalid_url"]);
    expect(res.body.error.message).not.toContain("WEBHOOK_ALLOW_LOCAL_DESTINATIONS");
  });
});
