/**
 * `GET /dashboard` as the API serves it (DESIGN §15): the built application's `index.html` for every page's address,
 * never cached, under a strict Content-Security-Policy; its hashed assets cached for good; an unknown file 404; and
 * the API's own origin (`PUBLIC_BASE_URL`'s) accepted as a panel origin, so the page's state changes pass the CSRF
 * rule. The build is the one `npm run build` makes, from the cache when the sources did not change.
 */
import request from "supertest";
import { builtDashboard } from "../../src/routes/dashboard/dashboard-build";
import { useApiTestContext } from "../support/harness";
import { signUpOwner } from "../support/panel";

jest.setTimeout(120_000);

describe("GET /dashboard", () => {
  const ctx = useApiTestContext();
  let script: string;

  beforeAll(async () => {
    await builtDashboard();
    const html = (await request(ctx.app).get("/dashboard")).text;
    script = /<script type="module" crossorigin src="\/dashboard\/([^"]+\.js)"/.exec(html)?.[1] ?? "";
  });

  test("when a page's address is asked for, then index.html, never cached, under the dashboard's CSP, gzipped", async () => {
    const replies = await Promise.all(
      ["/dashboard", "/dashboard/sign-in", "/dashboard/charges/txn_01M8CKV86YK2RNMDWWD2CR24MZ"].map((path) =>
        request(ctx.app).get(path).set("Accept-Encoding", "gzip"),
      ),
    );

    for (const res of replies) {
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(res.headers["content-security-policy"]).toContain("script-src 'self';");
      expect(res.headers["content-security-policy"]).toContain("style-src 'self';");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res.text).toContain('<div id="root"></div>');
    }
    expect(script).toMatch(/^index-[A-Za-z0-9_-]{8}\.js$/);
    expect(replies[0]!.text).not.toMatch(/<script>|<style>|style="/);
  });

  test("when a built asset is asked for, then it is served cached for good; an unknown file is 404", async () => {
    const asset = await request(ctx.app).get(`/dashboard/${script}`);
    const missing = await request(ctx.app).get("/dashboard/index-00000000.js");

    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect([missing.status, missing.body.error.code]).toEqual([404, "resource_not_found"]);
  });

  test("when the page signs out from the API's own origin, then the CSRF rule lets it through", async () => {
    const owner = await signUpOwner(ctx);
    const own = new URL(ctx.config.publicBaseUrl).origin;

    const fromOwnOrigin = await request(ctx.app)
      .post("/v1/me/auth/sign-out")
      .set("Cookie", owner.cookie)
      .set("Origin", own)
      .send({});
    const fromElsewhere = await request(ctx.app)
      .post("/v1/me/auth/sign-out")
      .set("Cookie", owner.cookie)
      .set("Origin", "http://evil.example")
      .send({});

    expect(ctx.config.panelOrigins).not.toContain(own);
    expect(fromOwnOrigin.status).toBe(200);
    expect([fromElsewhere.status, fromElsewhere.body.error.code]).toEqual([403, "permission_denied"]);
    expect(fromElsewhere.body.error.message).toContain(own);
  });
});
