/**
 * What a bound repository runs its statements on (see `repositories.ts`): outside a unit of work, the `pg` pool for
 * the statements measured hot and the Prisma client for the rest; inside one, its open transaction for every
 * statement. Each repository module says which of its functions run where, so that knowledge stays where it was
 * measured, and the callers name no client.
 */
import type { Pool } from "pg";
import type { DbClient } from "./client";
import type { Prisma } from "./generated/client";
import type { SqlClient } from "./sql";

/** The clients a bound repository picks from. */
export interface Connection {
  /** For plain SQL: the pool outside a unit of work, its transaction inside. */
  sql: SqlClient;
  /** For Prisma queries: the client outside a unit of work, its transaction inside. */
  prisma: DbClient;
  /** The unit of work's transaction, or null outside one. */
  tx: Prisma.TransactionClient | null;
  /** The pool itself, for statements that open a connection of their own (a cursor's read-only transaction). */
  pool: Pool;
}

/** `fn` without its first parameter (the client). */
type Bound<F> = F extends (client: never, ...args: infer A) => infer R ? (...args: A) => R : never;

/** Every function of `fns`, bound. */
export type BoundFunctions<M> = { [K in keyof M]: Bound<M[K]> };

/** Binds each function of `fns` to `client`. */
function bindAll<C, M extends Record<string, (client: C, ...args: never[]) => unknown>>(
  client: () => C,
  fns: M,
): BoundFunctions<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) {
    bound[name] = (...args: never[]) => fn(client(), ...args);
  }
  return bound as BoundFunctions<M>;
}

/** `fns` (plain SQL, whatever client runs it) bound to the pool outside a unit of work, to its transaction inside. */
export function onSql<M extends Record<string, (client: SqlClient, ...args: never[]) => unknown>>(
  c: Connection,
  fns: M,
): BoundFunctions<M> {
  return bindAll(() => c.sql, fns);
}

/** `fns` (Prisma queries) bound to the Prisma client outside a unit of work, to its transaction inside. */
export function onPrisma<M extends Record<string, (client: DbClient, ...args: never[]) => unknown>>(
  c: Connection,
  fns: M,
): BoundFunctions<M> {
  return bindAll(() => c.prisma, fns);
}

/**
 * `fns` that must run inside a unit of work (they lock rows, or read what the same transaction wrote), bound to it.
 * Called outside one, they throw.
 */
export function inUnitOfWork<M extends Record<string, (tx: Prisma.TransactionClient, ...args: never[]) => unknown>>(
  c: Connection,
  fns: M,
): BoundFunctions<M> {
  return bindAll(() => {
    if (c.tx === null) throw new Error("this repository method runs only inside repos.transaction()");
    return c.tx;
  }, fns);
}

/** `fns` that open a connection of their own, bound to the pool. */
export function onPool<M extends Record<string, (pool: Pool, ...args: never[]) => unknown>>(
  c: Connection,
  fns: M,
): BoundFunctions<M> {
  return bindAll(() => c.pool, fns);
}
