import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { signUpOwner, waitForMail } from "../support/panel";

/**
 * `PUBLIC_BASE_URL` and `PANEL_ORIGINS` left unset follow `PORT` (DESIGN §6), and a panel request refused for its
 * origin says what it got, what is allowed and which setting allows it.
 */
describe("defaults that follow PORT", () => {
  // Unset, as in a shell that never exported them (the test configuration sets both otherwise).
  const unset = undefined as unknown as string;
  const ctx = useApiTestContext({ PORT: "3310", PUBLIC_BASE_URL: unset, PANEL_ORIGINS: unset });

  test("when PORT is 3310 and PUBLIC_BASE_URL is unset, then the OpenAPI servers and mailed links point at port 3310", async () => {
    const owner = await signUpOwner(ctx);

    const document = await request(ctx.app).get("/openapi.json");
    const mail = await waitForMail(ctx, owner.email, /Confirm your email/);

    expect(document.body.servers).toEqual([{ url: "http://localhost:3310" }]);
    expect(mail.text).toContain("http://localhost:3310/dashboard/verify-email?token=");
  });

  test("when a panel change comes from the port's origin, then it is accepted; from the old default port, then 403 naming both origins and PANEL_ORIGINS", async () => {
    const owner = await signUpOwner(ctx);
    const post = () =>
      request(ctx.app)
        .post("/v1/me/terms/accept")
        .set("Cookie", owner.cookie)
        .send({ version: ctx.config.termsVersion });

    const ownPort = await post().set("Origin", "http://localhost:3310");
    const oldPort = await post().set("Origin", "http://localhost:3000");
    const noOrigin = await post();

    expect(ownPort.status).toBe(204);
    expect(oldPort.status).toBe(403);
    expect(oldPort.body.error.code).toBe("permission_denied");
    expect(oldPort.body.error.message).toContain('Origin "http://localhost:3000"');
    expect(oldPort.body.error.message).toContain("allowed panel origins are http://localhost:3310");
    expect(oldPort.body.error.message).toContain("PANEL_ORIGINS");
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.message).toContain("neither an Origin nor a Referer header");
  });
});
