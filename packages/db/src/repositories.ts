/**
 * The repositories bound once (packages/db/README.md "Repositories"): {@link createRepositories} gives every
 * repository's functions without their client, each running where its module says (the pool for the statements
 * measured hot, Prisma for the rest), and `transaction` hands the same objects bound to one database transaction. The
 * domain receives them as `UseCaseDeps.repos` and names no client.
 */
import type { Db } from "./client";
import type { Connection } from "./connection";
import type { Prisma } from "./generated/client";
import { inTransaction } from "./transaction";
import { accountsRepository } from "./repositories/accounts.repository";
import { acquirersRepository } from "./repositories/acquirers.repository";
import { apiKeysRepository } from "./repositories/api-keys.repository";
import { chargesRepository } from "./repositories/charges.repository";
import { deliveriesRepository } from "./repositories/deliveries.repository";
import { disputesRepository } from "./repositories/disputes.repository";
import { eventsRepository } from "./repositories/events.repository";
import { idempotencyKeysRepository } from "./repositories/idempotency-keys.repository";
import { inboxRepository } from "./repositories/inbox.repository";
import { ledgerRepository } from "./repositories/ledger.repository";
import { notificationsRepository } from "./repositories/notifications.repository";
import { paymentsRepository } from "./repositories/payments.repository";
import { payoutKeysRepository } from "./repositories/payout-keys.repository";
import { payoutsRepository } from "./repositories/payouts.repository";
import { qrCodesRepository } from "./repositories/qr-codes.repository";
import { recurrencesRepository } from "./repositories/recurrences.repository";
import { refundsRepository } from "./repositories/refunds.repository";
import { retentionRepository } from "./repositories/retention.repository";
import { sellersRepository } from "./repositories/sellers.repository";
import { transactionBatchesRepository } from "./repositories/transaction-batches.repository";
import { webhookEndpointsRepository } from "./repositories/webhook-endpoints.repository";
import { webhookRecoveriesRepository } from "./repositories/webhook-recoveries.repository";
import { withdrawalsRepository } from "./repositories/withdrawals.repository";

/** Each repository's binder, by the name the domain reaches it under (`repos.charges`). */
const REPOSITORIES = {
  accounts: accountsRepository,
  acquirers: acquirersRepository,
  apiKeys: apiKeysRepository,
  charges: chargesRepository,
  deliveries: deliveriesRepository,
  disputes: disputesRepository,
  events: eventsRepository,
  idempotencyKeys: idempotencyKeysRepository,
  inbox: inboxRepository,
  ledger: ledgerRepository,
  notifications: notificationsRepository,
  payments: paymentsRepository,
  payoutKeys: payoutKeysRepository,
  payouts: payoutsRepository,
  qrCodes: qrCodesRepository,
  recurrences: recurrencesRepository,
  refunds: refundsRepository,
  retention: retentionRepository,
  sellers: sellersRepository,
  transactionBatches: transactionBatchesRepository,
  webhookEndpoints: webhookEndpointsRepository,
  webhookRecoveries: webhookRecoveriesRepository,
  withdrawals: withdrawalsRepository,
};

/** Every repository, bound. */
type BoundRepositories = { [K in keyof typeof REPOSITORIES]: ReturnType<(typeof REPOSITORIES)[K]> };

/** Where a bound set keeps its connection. */
const CONNECTION = Symbol("connection");

/**
 * The prototype of every bound set: a repository is bound on first use, then kept on the set. A unit of work makes a
 * set per transaction, and binding all twenty-one repositories for each (about 200 functions) cost about 0.1 ms of CPU per
 * transaction; most units of work use three or four.
 */
const boundPrototype = Object.create(null) as object;
for (const name of Object.keys(REPOSITORIES) as Array<keyof typeof REPOSITORIES>) {
  Object.defineProperty(boundPrototype, name, {
    get(this: { [CONNECTION]: Connection }) {
      const bound = REPOSITORIES[name](this[CONNECTION]);
      Object.defineProperty(this, name, { value: bound, enumerable: true });
      return bound;
    },
  });
}

/** Every repository bound to connection `c`, each bound on first use. */
function bindRepositories(c: Connection): BoundRepositories {
  const bound = Object.create(boundPrototype) as BoundRepositories & { [CONNECTION]: Connection };
  bound[CONNECTION] = c;
  return bound;
}

/** Options of a unit of work (see `inTransaction`). */
export interface UnitOfWorkOptions {
  /** Defaults to PostgreSQL's READ COMMITTED. */
  isolationLevel?: "ReadCommitted" | "RepeatableRead" | "Serializable";
  /** Longest the transaction may stay open, ms (default 10 000). */
  timeoutMs?: number;
}

/**
 * Every repository, bound (`repos.charges.findChargeById(id)`), and the unit of work: `repos.transaction(async (r) =>
 * ...)` runs its callback in one database transaction, with `r` the same repositories bound to it; everything written
 * through `r` commits together or not at all. Called on an `r`, it joins that transaction. Outside a transaction a
 * serialization failure or deadlock re-runs the callback (up to 3 runs), so it must do nothing but database work.
 */
export type Repositories = BoundRepositories & {
  transaction<T>(fn: (r: Repositories) => Promise<T>, options?: UnitOfWorkOptions): Promise<T>;
};

/** The repositories of `db`, bound once (a process makes them at start-up, beside its client). */
export function createRepositories(db: Db): Repositories {
  return Object.assign(bindRepositories({ sql: db.pool, prisma: db, tx: null, pool: db.pool }), {
    transaction: <T>(fn: (r: Repositories) => Promise<T>, options: UnitOfWorkOptions = {}) =>
      inTransaction(db, (tx) => fn(repositoriesOf(db, tx)), {
        isolationLevel: options.isolationLevel as Prisma.TransactionIsolationLevel | undefined,
        timeoutMs: options.timeoutMs,
      }),
  });
}

/** The repositories bound to open transaction `tx`; their `transaction` joins it. */
function repositoriesOf(db: Db, tx: Prisma.TransactionClient): Repositories {
  const r: Repositories = Object.assign(bindRepositories({ sql: tx, prisma: tx, tx, pool: db.pool }), {
    transaction: <T>(fn: (joined: Repositories) => Promise<T>) => fn(r),
  });
  return r;
}
