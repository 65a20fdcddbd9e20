import { isTransientConnectionError } from "../src/errors";

describe("isTransientConnectionError", () => {
  test("when PostgreSQL refused or dropped the connection, however deeply wrapped, then it is transient", () => {
    expect(isTransientConnectionError(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isTransientConnectionError({ message: "x", cause: { kind: "ConnectionClosed" } })).toBe(true);
    expect(isTransientConnectionError({ code: "P2010", meta: { driverAdapterError: { cause: { code: "57P01" } } } })).toBe(true);
    expect(isTransientConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  test("when a statement itself failed (a unique violation, a bug), then it is not transient", () => {
    expect(isTransientConnectionError(Object.assign(new Error("dup"), { code: "P2002" }))).toBe(false);
    expect(isTransientConnectionError(new TypeError("x is undefined"))).toBe(false);
    expect(isTransientConnectionError(undefined)).toBe(false);
  });
});
