/**
 * Mapping of Prisma errors to the service's meaning: a unique violation is a conflict, a missing record is not found.
 */
import { Prisma } from "./generated/client";

/**
 * Whether `err` is a unique-constraint violation (Prisma or plain SQL), optionally on a constraint that covers `field`.
 * Use it where a race is expected: insert, and on a conflict read what the other writer stored.
 */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  const fields = uniqueViolationTargets(err);
  if (fields === null) return false;
  if (field === undefined) return true;
  // With driver adapters the constraint may be reported by name (`transactions_txid_key`) rather than by columns.
  return fields.length === 0 || fields.some((f) => f === field || f.includes(field));
}

/**
 * The columns or constraint names of a unique violation, or `null` for any other error: a Prisma model query's
 * P2002, a Prisma raw query's P2010 carrying SQLSTATE 23505, or a `pg` error 23505 (plain SQL, `./sql.ts`).
 */
function uniqueViolationTargets(err: unknown): string[] | null {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    const meta = err.meta as { target?: unknown; code?: unknown; message?: unknown } | undefined;
    if (err.code === "P2010" && meta?.code === "23505") return [String(meta.message ?? "")];
    if (err.code !== "P2002") return null;
    const target = meta?.target;
    return Array.isArray(target) ? target.map(String) : typeof target === "string" ? [target] : [];
  }
  const pgError = err as { code?: unknown; constraint?: unknown } | null;
  if (pgError instanceof Error && pgError.code === "23505") return [String(pgError.constraint ?? "")];
  return null;
}

/** Whether `err` says that the record to update or delete does not exist (Prisma P2025). */
export function isRecordNotFound(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025";
}

/** Error codes and driver-adapter kinds that mean "the connection, not the statement, failed". */
const TRANSIENT_MARKERS = new Set([
  // Node sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  // @prisma/adapter-pg kinds
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  // Prisma: can't reach, timed out, server closed the connection, pool exhausted
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
]);

/**
 * PostgreSQL SQLSTATEs of a server going away or refusing work for now: class 08 (connection exceptions), 53300
 * (too many connections), 57P01-57P03 (shutdown, crash shutdown, cannot connect now).
 */
const TRANSIENT_SQLSTATE = /^(08...|53300|57P0[123])$/;

/** Messages of the same failures where no code survives the wrapping (pg, ioredis). */
const TRANSIENT_MESSAGE =
  /connection terminated|connection is closed|server closed the connection|the database system is (starting up|shutting down)|terminating connection|timeout exceeded when trying to connect|max retries per request/i;

/**
 * Whether `err` (or any error it wraps, through `cause`, `meta.driverAdapterError` or `originalError`) says that
 * PostgreSQL or Redis could not be reached or dropped the connection: a failure that a retry a moment later can fix,
 * as opposed to one that the same statement will hit again. The worker retries such jobs with a short backoff during
 * a blip, so an outage never uses up their tries; the API answers such a request 503 `service_unavailable` with `Retry-After` instead of 500
 * (the client can tell "try again" from "we broke").
 */
export function isTransientConnectionError(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current) || seen.size > 10) continue;
    seen.add(current);
    const fields = current as {
      code?: unknown;
      kind?: unknown;
      severity?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: unknown;
      originalError?: unknown;
    };
    if (typeof fields.code === "string" && (TRANSIENT_MARKERS.has(fields.code) || TRANSIENT_SQLSTATE.test(fields.code)))
      return true;
    if (typeof fields.kind === "string" && TRANSIENT_MARKERS.has(fields.kind)) return true;
    // FATAL and PANIC end the session: the server refused or lost the connection (e.g. 55000, a database not
    // accepting connections), whatever the statement was.
    if (fields.kind === "postgres" && (fields.severity === "FATAL" || fields.severity === "PANIC")) return true;
    if (typeof fields.message === "string" && TRANSIENT_MESSAGE.test(fields.message)) return true;
    queue.push(fields.cause, fields.meta, fields.originalError);
    if (fields.meta && typeof fields.meta === "object")
      queue.push((fields.meta as { driverAdapterError?: unknown }).driverAdapterError);
  }
  return false;
}
