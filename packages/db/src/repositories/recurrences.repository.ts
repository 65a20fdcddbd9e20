/**
 * Pix Automático recurrences (`recurrences`, DESIGN §14), the engine's state of their cycles (`recurrence_cycles`) and
 * test clocks (`test_clocks`). A recurrence is written once with its `recurrence.created` event; afterwards every
 * change, the engine's included, is made under its row's lock (`lockRecurrence`), so the engine, the merchant API and
 * a clock's advance never interleave on one recurrence. The engine reads only due recurrences, through the partial
 * indexes the migration makes (`recurrences_due_idx`, `recurrences_clock_due_idx`), and a recurrence's open cycles
 * through `recurrence_cycles_open_idx`.
 */
import { inUnitOfWork, onPrisma, onSql, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { Prisma, Recurrence, RecurrenceCycle, TestClock, Transaction } from "../generated/client";
import type { PageArgs } from "../page";
import { insertWrite, rawSql, runWrites, sql, sqlQuery, type SqlClient } from "../sql";
import { chargeRowWrite } from "./charges.repository";
import { insertWithEvents, type EventsToWrite } from "./events.repository";
import type { IdempotentReply } from "./idempotency-keys.repository";

/** The columns of a recurrence, by name (a prepared statement must not select `*`, see `sqlQuery`). */
const RECURRENCE_COLUMNS = rawSql(
  [
    "id",
    "store_id",
    "mode",
    "status",
    "contract",
    "description",
    "customer_name",
    "customer_document",
    "customer_document_masked",
    "payer_account",
    "start_date",
    "end_date",
    "interval",
    "amount",
    "minimum_amount",
    "retry_policy",
    "journey",
    "br_code",
    "qr_code_png_base64",
    "first_payment_transaction_id",
    "postback_url",
    "acquirer_id",
    "bank_recurrence_id",
    "registering",
    "registration_key",
    "bank_location_id",
    "bank_checked_at",
    "test_clock_id",
    "next_cycle",
    "next_due_date",
    "next_run_at",
    "approval_expires_at",
    "canceled_by",
    "approved_at",
    "rejected_at",
    "expired_at",
    "canceled_at",
    "created_at",
    "updated_at",
  ].join(", "),
);

/**
 * Inserts `recurrence` with its events (`recurrence.created`) and their first deliveries, and `reply` (the request's
 * idempotent reply), in ONE statement.
 * @returns the ids of the delivery rows written
 * @throws `reply.takenOver()` when its claim was taken over (nothing written)
 */
export async function insertRecurrence(
  client: SqlClient,
  recurrence: Recurrence,
  events: EventsToWrite,
  reply?: IdempotentReply,
): Promise<string[]> {
  const row = insertWrite("recurrences", [{ ...recurrence }], {
    mode: "mode",
    status: "recurrence_status",
    interval: "recurrence_interval",
    retry_policy: "recurrence_retry_policy",
    journey: "recurrence_journey",
    canceled_by: "recurrence_party",
    payer_account: "jsonb",
  });
  return insertWithEvents(client, row, events, reply);
}

/** Recurrence `id`, or null. By id alone: the caller checks the store and mode. */
export function findRecurrenceById(db: DbClient, id: string): Promise<Recurrence | null> {
  return db.recurrence.findUnique({ where: { id } });
}

/** The recurrence of store `storeId` in `mode` whose creation had key `registrationKey` (see `registration_key`), or null. */
export function findRecurrenceByRegistrationKey(
  db: DbClient,
  scope: { storeId: string; mode: Recurrence["mode"] },
  registrationKey: string,
): Promise<Recurrence | null> {
  return db.recurrence.findUnique({
    where: {
      store_id_mode_registration_key: { store_id: scope.storeId, mode: scope.mode, registration_key: registrationKey },
    },
  });
}

/** Records what the bank gave a recurrence still `registering` (its location, its `idRec`) as soon as it is known. */
export async function recordBankRegistration(
  db: DbClient,
  id: string,
  ids: { bank_location_id?: number; bank_recurrence_id?: string },
): Promise<void> {
  await db.recurrence.updateMany({ where: { id, registering: true }, data: ids });
}

/**
 * Completes recurrence `id`'s registration at its bank (the caller holds its lock and checked it `registering`): its
 * authorization and `idRec` written, visible from now on, the engine's next run set; returns it as written.
 */
export function completeRecurrenceRegistration(
  db: DbClient,
  id: string,
  done: Pick<Recurrence, "br_code" | "qr_code_png_base64" | "bank_recurrence_id" | "next_run_at">,
  at: Date,
): Promise<Recurrence> {
  return db.recurrence.update({ where: { id }, data: { ...done, registering: false, updated_at: at } });
}

/** Deletes recurrence `id` if it is still `registering` (its bank refused it: nothing of it is left). */
export async function deleteRegisteringRecurrence(db: DbClient, id: string): Promise<void> {
  await db.recurrence.deleteMany({ where: { id, registering: true } });
}

/** The recurrence bank `acquirerId` holds as `bankRecurrenceId` (the standard's `idRec`), or null. */
export function findRecurrenceByBankId(
  db: DbClient,
  acquirerId: string,
  bankRecurrenceId: string,
): Promise<Recurrence | null> {
  return db.recurrence.findUnique({
    where: { acquirer_id_bank_recurrence_id: { acquirer_id: acquirerId, bank_recurrence_id: bankRecurrenceId } },
  });
}

/** One page of a store's recurrences of `mode`, in the page's order. */
export function listRecurrencesPage(
  db: DbClient,
  scope: { storeId: string; mode: Recurrence["mode"] },
  page: PageArgs,
): Promise<Recurrence[]> {
  return db.recurrence.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      registering: false,
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Locks recurrence `id` for the rest of `tx` and reads it, or undefined. */
export async function lockRecurrence(tx: Prisma.TransactionClient, id: string): Promise<Recurrence | undefined> {
  const [locked] = await sqlQuery<Recurrence>(
    tx,
    sql`SELECT ${RECURRENCE_COLUMNS} FROM recurrences WHERE id = ${id} FOR UPDATE`,
  );
  return locked;
}

/**
 * Approves recurrence `id` at `at` (the caller holds its lock and checked it `created`), its first cycle to charge
 * being `next.cycle`, due on `next.dueDate`; returns it as written.
 */
export function approveRecurrenceRow(
  db: DbClient,
  id: string,
  next: { cycle: number; dueDate: string | null },
  at: Date,
): Promise<Recurrence> {
  return db.recurrence.update({
    where: { id },
    data: { status: "approved", approved_at: at, next_cycle: next.cycle, next_due_date: next.dueDate, updated_at: at },
  });
}

/** The state a recurrence ends in, and who canceled it. */
export type RecurrenceEnding =
  | { status: "rejected" | "expired"; canceledBy?: undefined }
  | { status: "canceled"; canceledBy: NonNullable<Recurrence["canceled_by"]> };

/**
 * Ends recurrence `id` at `at` (the caller holds its lock): `rejected`, `expired` or `canceled`, with the time of that
 * state, and nothing left for the engine (no next cycle, no next run); returns it as written.
 */
export function endRecurrenceRow(db: DbClient, id: string, ending: RecurrenceEnding, at: Date): Promise<Recurrence> {
  const when = { rejected: "rejected_at", expired: "expired_at", canceled: "canceled_at" }[ending.status];
  return db.recurrence.update({
    where: { id },
    data: {
      status: ending.status,
      [when]: at,
      canceled_by: ending.canceledBy ?? null,
      next_due_date: null,
      next_run_at: null,
      updated_at: at,
    },
  });
}

/**
 * Moves recurrence `id`'s next cycle to charge on, at `at` (the caller holds its lock and wrote the cycle before);
 * returns it as written.
 */
export function moveToNextCycle(
  db: DbClient,
  id: string,
  next: { cycle: number; dueDate: string | null },
  at: Date,
): Promise<Recurrence> {
  return db.recurrence.update({
    where: { id },
    data: { next_cycle: next.cycle, next_due_date: next.dueDate, updated_at: at },
  });
}

/** Sets when the engine next acts on recurrence `id` (null: never). */
export async function setRecurrenceNextRunAt(db: DbClient, id: string, nextRunAt: Date | null): Promise<void> {
  await db.recurrence.update({ where: { id }, data: { next_run_at: nextRunAt } });
}

/**
 * Up to `limit` ids of recurrences on real time (no test clock) whose `next_run_at` is at or before `now`, soonest
 * first, through `recurrences_due_idx`: the engine's sweep reads nothing else.
 */
export async function findDueRecurrenceIds(client: SqlClient, now: Date, limit: number): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT id FROM recurrences
        WHERE next_run_at IS NOT NULL AND test_clock_id IS NULL AND next_run_at <= ${now}
        ORDER BY next_run_at LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/**
 * Up to `limit` ids of test clock `clockId`'s recurrences whose `next_run_at` is at or before `until`, soonest first,
 * through `recurrences_clock_due_idx`.
 */
export async function findClockDueRecurrenceIds(
  client: SqlClient,
  clockId: string,
  until: Date,
  limit: number,
): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT id FROM recurrences
        WHERE test_clock_id = ${clockId} AND next_run_at IS NOT NULL AND next_run_at <= ${until}
        ORDER BY next_run_at LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/** An open cycle of a recurrence with what the engine reads of its charge. */
export type OpenCycle = RecurrenceCycle & Pick<Transaction, "status" | "amount" | "created_at">;

/**
 * The cycles of recurrence `recurrenceId` the engine still acts on (`next_attempt_at` set), earliest due first, with
 * their charges' status, amount and creation time; through `recurrence_cycles_open_idx`.
 */
export function findOpenCycles(client: SqlClient, recurrenceId: string): Promise<OpenCycle[]> {
  return sqlQuery<OpenCycle>(
    client,
    sql`SELECT c.transaction_id, c.recurrence_id, c.due_date, c.attempts, c.next_attempt_at, c.bank_checked_at,
          t.status, t.amount, t.created_at
        FROM recurrence_cycles c JOIN transactions t ON t.id = c.transaction_id
        WHERE c.recurrence_id = ${recurrenceId} AND c.next_attempt_at IS NOT NULL
        ORDER BY c.due_date`,
  );
}

/**
 * Inserts cycle `cycle` and its charge `charge` (`scheduled`) in ONE statement.
 * @throws a unique violation on `(recurrence_id, due_date)` when the cycle was written before (see
 *   `isUniqueViolation`): nothing is written twice
 */
export async function insertCycle(client: SqlClient, charge: Transaction, cycle: RecurrenceCycle): Promise<void> {
  await runWrites(client, [chargeRowWrite(charge), insertWrite("recurrence_cycles", [{ ...cycle }])]);
}

/** Sets cycle `transactionId`'s debits tried and next action time. */
export async function updateCycle(
  db: DbClient,
  transactionId: string,
  data: Pick<RecurrenceCycle, "attempts" | "next_attempt_at">,
): Promise<void> {
  await db.recurrenceCycle.update({ where: { transaction_id: transactionId }, data });
}

/**
 * Marks cycle charge `id` sent at `at`: `scheduled` becomes `pending`, only while it is `scheduled` (a cancel may have
 * come first).
 * @returns the charge as written, or null when it was no longer scheduled (nothing written)
 */
export function markCycleChargeSent(db: DbClient, id: string, at: Date): Promise<Transaction | null> {
  return moveChargeStatus(db, id, "scheduled", { status: "pending", updated_at: at });
}

/**
 * Fails cycle charge `id` at `at`, only while it is in status `failure.from` (`pending`: its debits failed;
 * `scheduled`: its bank refused to register it), with `failure.reason` (`debit_failed`, `rejected_by_acquirer`).
 * @returns the charge as written, or null when it was no longer in that status (nothing written)
 */
export function markCycleChargeFailed(
  db: DbClient,
  id: string,
  at: Date,
  failure: { from: "pending" | "scheduled"; reason: "debit_failed" | "rejected_by_acquirer" },
): Promise<Transaction | null> {
  return moveChargeStatus(db, id, failure.from, { status: "failed", failure_reason: failure.reason, updated_at: at });
}

/** Moves charge `id` from status `from` with `data`, by a conditional update; the charge as written, or null. */
async function moveChargeStatus(
  db: DbClient,
  id: string,
  from: Transaction["status"],
  data: Prisma.TransactionUncheckedUpdateManyInput,
): Promise<Transaction | null> {
  const { count } = await db.transaction.updateMany({ where: { id, status: from }, data });
  return count === 0 ? null : db.transaction.findUnique({ where: { id } });
}

/** Inserts test clock `clock`. */
export async function insertTestClock(db: DbClient, clock: TestClock): Promise<void> {
  await db.testClock.create({ data: clock });
}

/** Test clock `id`, or null. By id alone: the caller checks the store. */
export function findTestClockById(db: DbClient, id: string): Promise<TestClock | null> {
  return db.testClock.findUnique({ where: { id } });
}

/** One page of a store's test clocks, in the page's order. */
export function listTestClocksPage(db: DbClient, storeId: string, page: PageArgs): Promise<TestClock[]> {
  return db.testClock.findMany({
    where: { store_id: storeId, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/**
 * Starts clock `id`'s advance to `to` at `at`, only while it is `ready` (two advances cannot both start).
 * @returns the clock as written, or null when it was not ready
 */
export async function startTestClockAdvance(db: DbClient, id: string, to: Date, at: Date): Promise<TestClock | null> {
  const { count } = await db.testClock.updateMany({
    where: { id, status: "ready" },
    data: { status: "advancing", advancing_to: to, updated_at: at },
  });
  return count === 0 ? null : db.testClock.findUnique({ where: { id } });
}

/** Ends clock `id`'s advance to `to` at `at`: `frozen_time` becomes `to`, the clock `ready`; a no-op once ended. */
export async function finishTestClockAdvance(db: DbClient, id: string, to: Date, at: Date): Promise<void> {
  await db.testClock.updateMany({
    where: { id, status: "advancing", advancing_to: to },
    data: { status: "ready", frozen_time: to, advancing_to: null, updated_at: at },
  });
}

/**
 * Up to `limit` clocks still advancing whose advance started at or before `startedBy`, through
 * `test_clocks_advancing_idx` (the reconciler offers them again, DESIGN §1).
 */
export function listAdvancingTestClocks(
  client: SqlClient,
  startedBy: Date,
  limit: number,
): Promise<Array<Pick<TestClock, "id" | "advancing_to">>> {
  return sqlQuery<Pick<TestClock, "id" | "advancing_to">>(
    client,
    sql`SELECT id, advancing_to FROM test_clocks WHERE status = 'advancing' AND updated_at <= ${startedBy}
        ORDER BY id LIMIT ${limit}`,
  );
}

/** A live recurrence awaiting the payer, as the reconciler reads it back. */
export interface RecurrenceToCheck {
  id: string;
  bank_recurrence_id: string;
}

/**
 * Up to `limit` live recurrences of bank `acquirerId` still `created` (awaiting the payer), least recently checked
 * first, through `recurrences_bank_check_idx`: only those candidates are read, whatever the history.
 */
export function listRecurrencesToCheck(
  client: SqlClient,
  acquirerId: string,
  limit: number,
): Promise<RecurrenceToCheck[]> {
  return sqlQuery<RecurrenceToCheck>(
    client,
    sql`SELECT id, bank_recurrence_id FROM recurrences
        WHERE acquirer_id = ${acquirerId} AND status = 'created' AND bank_recurrence_id IS NOT NULL AND NOT registering
        ORDER BY bank_checked_at NULLS FIRST, id LIMIT ${limit}`,
  );
}

/**
 * Up to `limit` recurrences of bank `acquirerId` still `registering` that were created before `createdBefore`, oldest
 * first, through `recurrences_registering_idx` (only such rows are in it).
 */
export function listAbandonedRegistrations(
  client: SqlClient,
  acquirerId: string,
  createdBefore: Date,
  limit: number,
): Promise<Array<Pick<Recurrence, "id" | "bank_recurrence_id" | "bank_location_id">>> {
  return sqlQuery(
    client,
    sql`SELECT id, bank_recurrence_id, bank_location_id FROM recurrences
        WHERE acquirer_id = ${acquirerId} AND registering AND created_at < ${createdBefore}
        ORDER BY created_at LIMIT ${limit}`,
  );
}

/** An open live cycle whose charge is `pending` past its first debit, as the reconciler reads it back. */
export interface CycleToCheck {
  transaction_id: string;
  txid: string;
  attempts: number;
}

/**
 * Up to `limit` open cycles whose charge, held by bank `acquirerId`, is still `pending` after its first debit time
 * (`next_attempt_at` at or before `now`), least recently checked first, through `recurrence_cycles_bank_check_idx`
 * (open cycles only: closed ones leave it).
 */
export function listCyclesToCheck(
  client: SqlClient,
  acquirerId: string,
  now: Date,
  limit: number,
): Promise<CycleToCheck[]> {
  return sqlQuery<CycleToCheck>(
    client,
    sql`SELECT c.transaction_id, t.txid, c.attempts
        FROM recurrence_cycles c JOIN transactions t ON t.id = c.transaction_id
        WHERE c.next_attempt_at IS NOT NULL AND c.next_attempt_at <= ${now} AND t.status = 'pending'
          AND t.acquirer_id = ${acquirerId}
        ORDER BY c.bank_checked_at NULLS FIRST, c.transaction_id LIMIT ${limit}`,
  );
}

/** Records that the reconciler read recurrence `id` back from its bank at `at`. */
export async function markRecurrenceChecked(db: DbClient, id: string, at: Date): Promise<void> {
  await db.recurrence.update({ where: { id }, data: { bank_checked_at: at } });
}

/** Records that the reconciler read cycle `transactionId`'s charge back from its bank at `at`. */
export async function markCycleChecked(db: DbClient, transactionId: string, at: Date): Promise<void> {
  await db.recurrenceCycle.update({ where: { transaction_id: transactionId }, data: { bank_checked_at: at } });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function recurrencesRepository(c: Connection) {
  return {
    ...onSql(c, {
      insertRecurrence,
      findDueRecurrenceIds,
      findClockDueRecurrenceIds,
      findOpenCycles,
      insertCycle,
      listAdvancingTestClocks,
      listRecurrencesToCheck,
      listAbandonedRegistrations,
      listCyclesToCheck,
    }),
    ...onPrisma(c, {
      findRecurrenceById,
      findRecurrenceByBankId,
      findRecurrenceByRegistrationKey,
      recordBankRegistration,
      completeRecurrenceRegistration,
      deleteRegisteringRecurrence,
      listRecurrencesPage,
      approveRecurrenceRow,
      endRecurrenceRow,
      moveToNextCycle,
      setRecurrenceNextRunAt,
      updateCycle,
      markCycleChargeSent,
      markCycleChargeFailed,
      markRecurrenceChecked,
      markCycleChecked,
      insertTestClock,
      findTestClockById,
      listTestClocksPage,
      startTestClockAdvance,
      finishTestClockAdvance,
    }),
    ...inUnitOfWork(c, { lockRecurrence }),
  };
}
