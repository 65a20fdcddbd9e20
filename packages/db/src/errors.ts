/**
 * Mapping of Prisma errors to the service's meaning: a unique violation is a conflict, a missing record is not found.
 */
import { Prisma } from "./generated/client";

/**
 * Whether `err` is a unique-constraint violation (Prisma P2002), optionally on a constraint that covers `field`.
 * Use it where a race is expected: insert, and on a conflict read what the other writer stored.
 */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") return false;
  if (field === undefined) return true;
  const target = (err.meta as { target?: unknown } | undefined)?.target;
  const fields = Array.isArray(target) ? target.map(String) : typeof target === "string" ? [target] : [];
  // With driver adapters the constraint may be reported by name (`transactions_txid_key`) rather than by columns.
  return fields.length === 0 || fields.some((f) => f === field || f.includes(field));
}

/** Whether `err` says that the record to update or delete does not exist (Prisma P2025). */
export function isRecordNotFound(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025";
}

/** Prisma codes of a database that cannot be reached or answer: unreachable, timed out, closed, pool exhausted. */
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** Driver adapter error kinds of the same situations. */
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/**
 * PostgreSQL SQLSTATEs of a server going away or refusing work for now: class 08 (connection exceptions), 53300
 * (too many connections), 57P01-57P03 (shutdown, crash shutdown, cannot connect now).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|53300|57P0[123])$/;

/**
 * Whether `err` says that PostgreSQL is down or unreachable for now (not that a statement was wrong): a Prisma
 * connection error, or a driver adapter error of that kind or of severity FATAL/PANIC, however deeply wrapped. The API answers such a request
 * 503 with `Retry-After` instead of 500 (issue 10 item 8).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  const seen = new Set<unknown>();
  for (let at: unknown = err; typeof at === "object" && at !== null && !seen.has(at); ) {
    seen.add(at);
    const candidate = at as {
      code?: unknown;
      kind?: unknown;
      severity?: unknown;
      meta?: { driverAdapterError?: unknown };
      cause?: unknown;
    };
    if (at instanceof Prisma.PrismaClientKnownRequestError && UNAVAILABLE_CODES.has(at.code)) return true;
    if (typeof candidate.kind === "string" && UNAVAILABLE_KINDS.has(candidate.kind)) return true;
    if (candidate.kind === "postgres" && typeof candidate.code === "string" && UNAVAILABLE_SQLSTATE.test(candidate.code)) return true;
    // FATAL and PANIC end the session: the server refused or lost the connection (e.g. 55000, a database not
    // accepting connections), whatever the statement was.
    if (candidate.kind === "postgres" && (candidate.severity === "FATAL" || candidate.severity === "PANIC")) return true;
    at = candidate.meta?.driverAdapterError ?? candidate.cause;
  }
  return false;
}
