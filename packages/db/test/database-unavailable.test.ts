import { isDatabaseUnavailable, Prisma } from "../src";

const known = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("failed", { code, clientVersion: "6.19.3", ...(meta ? { meta } : {}) });

describe("isDatabaseUnavailable", () => {
  test.each([
    ["P1001 (server not reachable)", known("P1001")],
    ["P1017 (server closed the connection)", known("P1017")],
    ["P2024 (pool timeout)", known("P2024")],
    ["an adapter error of a shutting-down server (57P01)", known("P2010", { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } })],
    [
      "a database that does not accept connections (55000, FATAL)",
      known("P2010", { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "postgres", code: "55000", severity: "FATAL" } } }),
    ],
    ["a raw adapter error of a closed connection", { name: "DriverAdapterError", cause: { kind: "ConnectionClosed" } }],
    ["a connection exception (class 08) wrapped in a cause", new Error("outer", { cause: { kind: "postgres", code: "08006" } })],
  ])("when the error is %s, then the database is unavailable", (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  test.each([
    ["a unique violation", known("P2002")],
    ["a value PostgreSQL refused (22P05)", known("P2010", { driverAdapterError: { cause: { kind: "postgres", code: "22P05", severity: "ERROR" } } })],
    ["a plain error", new Error("boom")],
    ["a string", "boom"],
  ])("when the error is %s, then it is not about availability", (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
