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
