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
