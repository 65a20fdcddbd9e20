import { isTransientConnectionError, Prisma } from "../src";

describe("isTransientConnectionError", () => {
  test("when PostgreSQL refused or dropped the connection, however deeply wrapped, then it is transient", () => {
    expect(isTransientConnectionError(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isTransientConnectionError({ message: "x", cause: { kind: "ConnectionClosed" } })).toBe(true);
    expect(
      isTransientConnectionError({ code: "P2010", meta: { driverAdapterError: { cause: { code: "57P01" } } } }),
    ).toBe(true);
    expect(isTransientConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  test("when a statement itself failed (a unique violation, a bug), then it is not transient", () => {
    expect(isTransientConnectionError(Object.assign(new Error("dup"), { code: "P2002" }))).toBe(false);
    expect(isTransientConnectionError(new TypeError("x is undefined"))).toBe(false);
    expect(isTransientConnectionError(undefined)).toBe(false);
  });
});

const known = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("failed", { code, clientVersion: "6.19.3", ...(meta ? { meta } : {}) });

describe("isTransientConnectionError on PostgreSQL and Prisma errors", () => {
  test.each([
    ["P1001 (server not reachable)", known("P1001")],
    ["P1017 (server closed the connection)", known("P1017")],
    ["P2024 (pool timeout)", known("P2024")],
    [
      "an adapter error of a shutting-down server (57P01)",
      known("P2010", { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } }),
    ],
    [
      "a database that does not accept connections (55000, FATAL)",
      known("P2010", {
        driverAdapterError: {
          name: "DriverAdapterError",
          cause: { kind: "postgres", code: "55000", severity: "FATAL" },
        },
      }),
    ],
    ["a raw adapter error of a closed connection", { name: "DriverAdapterError", cause: { kind: "ConnectionClosed" } }],
    [
      "a connection exception (class 08) wrapped in a cause",
      new Error("outer", { cause: { kind: "postgres", code: "08006" } }),
    ],
  ])("when the error is %s, then the database is unavailable", (_label, err) => {
    expect(isTransientConnectionError(err)).toBe(true);
  });

  test.each([
    ["a unique violation", known("P2002")],
    [
      "a value PostgreSQL refused (22P05)",
      known("P2010", { driverAdapterError: { cause: { kind: "postgres", code: "22P05", severity: "ERROR" } } }),
    ],
    ["a plain error", new Error("boom")],
    ["a string", "boom"],
  ])("when the error is %s, then it is not about availability", (_label, err) => {
    expect(isTransientConnectionError(err)).toBe(false);
  });
});
