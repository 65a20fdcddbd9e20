import request from "supertest";
import { notifySeller } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { signInOps, signUpOwner } from "../support/panel";

describe("GET /v1/me/notifications", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });

  test("when the seller has notifications, then its owner sees them newest first, paged, and no other seller's", async () => {
    const owner = await signUpOwner(ctx);
    const other = await signUpOwner(ctx);
    const first = await notifySeller(ctx.deps.repos, {
      sellerId: owner.seller.id,
      type: "api_key.created",
      title: "API key created",
      message: "A test key was created.",
      data: { api_key_id: "key_x" },
    });
    const second = await notifySeller(ctx.deps.repos, {
      sellerId: owner.seller.id,
      type: "a.b",
      title: "T",
      message: "M",
    });
    await notifySeller(ctx.deps.repos, { sellerId: other.seller.id, type: "a.b", title: "Other", message: "M" });

    const page1 = await request(ctx.app).get("/v1/me/notifications?limit=1").set("Cookie", owner.cookie);
    const page2 = await request(ctx.app)
      .get(`/v1/me/notifications?limit=1&starting_after=${second.id}`)
      .set("Cookie", owner.cookie);

    expect(page1.status).toBe(200);
    expect(page1.body).toEqual({
      object: "list",
      has_more: true,
      data: [
        {
          id: second.id,
          object: "notification",
          type: "a.b",
          title: "T",
          message: "M",
          data: {},
          created_at: expect.any(String),
        },
      ],
    });
    expect(page2.body.data.map((n: { id: string }) => n.id)).toEqual([first.id]);
    expect(page2.body.data[0].data).toEqual({ api_key_id: "key_x" });
    expect(page2.body.has_more).toBe(false);
  });

  test("when there is no session, then 401; an operator has no feed, 403", async () => {
    expect((await request(ctx.app).get("/v1/me/notifications")).status).toBe(401);

    const ops = await signInOps(ctx);
    const res = await request(ctx.app).get("/v1/me/notifications").set("Cookie", ops.cookie);

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });

  test("when the cursor is not a notification id, then 400 validation_failed naming it", async () => {
    const owner = await signUpOwner(ctx);

    const res = await request(ctx.app).get("/v1/me/notifications?starting_after=txn_x").set("Cookie", owner.cookie);

    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("starting_after");
  });
});
