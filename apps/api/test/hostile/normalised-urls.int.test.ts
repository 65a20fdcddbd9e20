/**
 * A webhook URL is stored in the normalised form the destination check approved, never as typed.
 * (Local destinations are admitted in tests, so `localhost` stands for a public host here.)
 */
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { createEndpoint, endpointOwner } from "../support/webhook-endpoints";

describe("normalised webhook URLs", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const merchant = useTestMerchant(ctx, { postbackSecret: true });
  const typed = "HTTP://LocalHost:9\\@127.0.0.1/hooks/../in";
  const approved = "http://localhost:9/@127.0.0.1/in";

  test("when an endpoint url holds a backslash before @, then the endpoint stores and shows the URL that was judged", async () => {
    const owner = await endpointOwner(ctx);

    const created = await createEndpoint(owner, { url: typed });

    expect(created.url).toBe(approved);
    expect((await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })).url).toBe(approved);
  });

  test("when an endpoint's url is changed to such a URL, then the normalised form is stored", async () => {
    const owner = await endpointOwner(ctx);
    const created = await createEndpoint(owner, { url: "http://localhost:9/first" });

    const res = await owner.panel.patch(`/v1/me/webhook-endpoints/${created.id}`, { url: typed });

    expect(res.status).toBe(200);
    expect(res.body.url).toBe(approved);
  });

  test("when a charge's postback_url holds a backslash before @, then the charge stores the URL that was judged", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody({ postback_url: typed }));

    expect(res.status).toBe(201);
    expect(res.body.postback_url).toBe(approved);
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: res.body.id } })).postback_url).toBe(approved);
  });
});
