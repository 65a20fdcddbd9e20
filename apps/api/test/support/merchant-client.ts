/**
 * A supertest client of the merchant API authenticated with one key, and a valid charge body to start from.
 */
import type { Express } from "express";
import request from "supertest";
import { createTestMerchant, givePostbackSecret, type TestMerchant } from "@lm/testing";
import type { ApiTestContext } from "./harness";

/** Requests with `Authorization: Bearer <key>`. */
export function merchantClient(app: Express, key: string) {
  const auth = (r: request.Test) => r.set("Authorization", `Bearer ${key}`);
  return {
    get: (path: string) => auth(request(app).get(path)),
    post: (path: string, body?: object) => {
      const r = auth(request(app).post(path));
      return body === undefined ? r : r.send(body);
    },
  };
}

/** A merchant client. */
export type MerchantClient = ReturnType<typeof merchantClient>;

/**
 * A test merchant (see `createTestMerchant`) with a client authenticated by its test key, and its store's postback
 * secret when it was given one.
 */
export type MerchantFixture = TestMerchant & { client: MerchantClient; postbackSecret?: string };

/**
 * Registers a `beforeAll` that creates a merchant for the file; the returned object is filled in then.
 * @param options.name - the seller's and store's name
 * @param options.postbackSecret - give the store a postback secret, which charges with a `postback_url` need
 *   (DESIGN §12 "Safer defaults"); without it the store has none, as a new store has
 */
export function useTestMerchant(
  ctx: ApiTestContext,
  options: { name?: string; postbackSecret?: boolean } = {},
): MerchantFixture {
  const fixture = {} as MerchantFixture;
  beforeAll(async () => {
    Object.assign(fixture, await createTestMerchant(ctx.db, { name: options.name }));
    fixture.client = merchantClient(ctx.app, fixture.testKey);
    if (options.postbackSecret) fixture.postbackSecret = await givePostbackSecret(ctx.db, fixture.storeId);
  });
  return fixture;
}

/** A valid creation body; override fields per test. */
export function chargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1050,
    description: "Pedido 1234",
    customer: { name: "Maria da Silva", document: "529.982.247-25", email: "maria@example.com" },
    metadata: { order_id: "1234" },
    ...overrides,
  };
}
