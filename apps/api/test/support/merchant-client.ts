/**
 * A supertest client of the merchant API authenticated with one key, and a valid charge body to start from.
 */
import type { Express } from "express";
import request from "supertest";

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
