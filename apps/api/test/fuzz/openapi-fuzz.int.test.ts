/**
 * Hostile input at every route: generated hostile bodies, queries, paths and headers at every route of the OpenAPI
 * document (see route-fuzzer.ts for the properties). A few hundred cases here; `npm run fuzz` runs many more.
 */
import fc from "fast-check";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { PANEL_ORIGIN } from "../support/panel";
import { fuzzCases, OPERATIONS, runCase, seedCredentials, tableDigests, type FuzzCredentials } from "./route-fuzzer";

/** Cases per run of the property (FUZZ_RUNS overrides). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

describe("hostile requests to every documented route", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback", STEP_UP_WINDOW_SECONDS: "86400" });
  let credentials: FuzzCredentials;
  beforeAll(async () => {
    credentials = await seedCredentials(ctx);
  });

  test(`when ${RUNS} generated hostile requests are sent, then no 5xx, the envelope on every 4xx, no hang, and no row changed by a refusal`, async () => {
    let before = await tableDigests(ctx.db);
    const reached = new Set<string>();

    await fc.assert(
      fc.asyncProperty(fuzzCases(credentials.resourceIds), async (fuzz) => {
        const { outcome, after } = await runCase(ctx, credentials, fuzz, before);
        before = after;
        reached.add(outcome.route);
        if (outcome.problems.length > 0)
          throw new Error(`${outcome.route} → ${outcome.status}: ${outcome.problems.join("; ")}`);
      }),
      { numRuns: RUNS },
    );

    expect(reached.size).toBeGreaterThan(OPERATIONS.length / 2);
  }, 120_000);

  test("when every documented operation gets NUL and lone surrogates in common body fields and query values, then none is a 5xx and none changes a row", async () => {
    const failures: string[] = [];
    let before = await tableDigests(ctx.db);
    for (const [index, op] of OPERATIONS.entries()) {
      const auth = op.path.startsWith("/v1/ops") ? "ops" : op.path.startsWith("/v1/me") ? "owner" : "apiKey";
      const { outcome, after } = await runCase(
        ctx,
        credentials,
        {
          operation: index,
          auth,
          pathValues: (op.path.match(/\{[^}]+\}/g) ?? []).map(() => "x"),
          query: [
            ["limit", "%00"],
            ["mode", "%00"],
          ],
          body: {
            kind: "json",
            value: { name: "a\u0000b", url: "\ud800", code: "\u0000", email: "\udc00@x.com", password: "p\u0000" },
          },
          headers: [],
        },
        before,
      );
      before = after;
      if (outcome.problems.length > 0)
        failures.push(`${outcome.route} → ${outcome.status}: ${outcome.problems.join("; ")}`);
    }

    expect(failures).toEqual([]);
  });

  test("when the seeded sessions are used after the fuzzing, then they still work (the run reached authenticated routes)", async () => {
    const owner = await request(ctx.app)
      .get("/v1/me/sessions")
      .set("Cookie", credentials.ownerCookie)
      .set("Origin", PANEL_ORIGIN);
    const merchant = await request(ctx.app)
      .get("/v1/transactions")
      .set("Authorization", `Bearer ${credentials.apiKey}`);

    expect([owner.status, merchant.status]).toEqual([200, 200]);
  });
});
