/**
 * The recurrence engine (DESIGN §14, §1): for every recurrence it writes each cycle's charge in the window the rules
 * allow, sends it, has the payer's bank debit it on its due date (in test mode the sandbox: an amount ending in `13`
 * fails), retries a failed debit as the policy allows, fails the cycle after its last debit, ends the recurrence at its
 * end date, and expires one not approved in 30 days.
 *
 * Every step is a row change made under the recurrence's lock, one database transaction per step, and the next step is
 * read back from the rows ({@link nextEngineStep}, pure): a cycle is written with its `recurrence_cycles` row (unique
 * per recurrence and due date) and the recurrence's move to the next cycle together, and sent by a later step; a debit
 * is a sandbox notification whose end-to-end id is a function of the cycle and the attempt, so notifying it again is a
 * repeat the inbox keeps once. A run stopped anywhere (a killed worker, `maxSteps`) and run again therefore sends no
 * cycle twice and misses none. Jobs are only enqueued after the rows commit (the events' deliveries).
 *
 * A live recurrence (one its bank holds, DESIGN §14 "Live") differs in two steps: `send` is preceded by the cycle's
 * charge registered at the bank (`cobr`), outside the step's transaction and without the recurrence's lock (DESIGN §9),
 * its txid making a repeat a read-back; a bank that refuses it (a 4xx problem) fails that cycle at once
 * (`rejected_by_acquirer`), while an outage leaves it for the next run. And there is no `debit`: the bank debits on the
 * due date and reports, and its report (bank-notices.ts) settles the charge, asks for a retry, or fails it.
 *
 * Time: a step happens at its own time (`at`: a cycle written at its send time, a debit at noon of its day), on the
 * recurrence's test clock when it has one, else on real time; events are always dated on real time.
 */
import type { OpenCycle, Recurrence, Repositories, Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { decryptDocument, chargeDocumentColumns } from "../document-at-rest";
import { parseTaxDocument } from "../documents";
import { endOfSaoPauloDay } from "../due-dates";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { acquirerOfRow, sandboxRefuses } from "../acquirers";
import { ApiError } from "../errors";
import { processInboxItem } from "../settle";
import { postSandboxPayment, SANDBOX_PAYER_NAME } from "../test-mode";
import { generateTxid, newChargeRow, recordTransactionEvent } from "../transactions";
import { attemptAt, cycleDueDateWithin, cycleSendAt, DAYS_AFTER_DUE, lastDebitDate, maxAttempts } from "./cycle-dates";
import { recordRecurrenceEvent } from "./recurrence-events";

/** What the engine does next for a recurrence, and when. */
export type EngineStep =
  /** An unapproved recurrence reaches its approval deadline. */
  | { kind: "expire"; at: Date }
  /** The next cycle's charge is written (`scheduled`), and the recurrence moves to the cycle after. */
  | { kind: "write"; at: Date; cycle: number; dueDate: string }
  /** A written cycle's charge is sent: `pending`, with `transaction.created`. */
  | { kind: "send"; at: Date; cycle: OpenCycle }
  /** The payer's bank tries to debit a pending cycle. */
  | { kind: "debit"; at: Date; cycle: OpenCycle }
  /** A cycle whose charge ended (paid, canceled) leaves the engine's open cycles. */
  | { kind: "close"; at: Date; cycle: OpenCycle };

/** Among steps due at the same instant, which comes first. */
const STEP_ORDER: Record<EngineStep["kind"], number> = { close: 0, send: 1, expire: 2, debit: 3, write: 4 };

/** What of a recurrence the planning reads. */
export type PlannedRecurrence = Pick<
  Recurrence,
  "status" | "approval_expires_at" | "approved_at" | "next_cycle" | "next_due_date" | "amount" | "bank_recurrence_id"
>;

/** The later of two instants. */
function later(a: Date, b: Date | null): Date {
  return b !== null && b > a ? b : a;
}

/**
 * The engine's next step for `recurrence` with open cycles `cycles` (pure), whenever it is due, or null when it has
 * nothing left to do (ended, rejected, canceled). The recurrence's `next_run_at` is this step's `at`.
 * @param leadDays - `RECURRENCE_LEAD_DAYS`: a fixed cycle is written this many days before its due date (a variable
 *   one at the window's close, 2 days before, the merchant may set its amount until then)
 */
export function nextEngineStep(
  recurrence: PlannedRecurrence,
  cycles: OpenCycle[],
  leadDays: number,
): EngineStep | null {
  const steps: EngineStep[] = [];
  if (recurrence.status === "created") steps.push({ kind: "expire", at: recurrence.approval_expires_at });
  // A live recurrence's pending cycle waits for its bank, which debits it and reports (DESIGN §14 "Live").
  const live = recurrence.bank_recurrence_id !== null;
  for (const cycle of cycles) {
    if (cycle.status === "scheduled") steps.push({ kind: "send", at: cycle.created_at, cycle });
    else if (cycle.status === "pending" && live) continue;
    else if (cycle.status === "pending" && cycle.next_attempt_at !== null) {
      // A cycle written late (approved on its due date after noon) is debited once written, never before.
      steps.push({ kind: "debit", at: later(cycle.next_attempt_at, cycle.created_at), cycle });
    } else steps.push({ kind: "close", at: cycle.created_at, cycle });
  }
  if (recurrence.status === "approved" && recurrence.next_due_date !== null) {
    // A cycle whose sending time had passed when the payer approved is sent at the approval, never before it.
    const sendAt = cycleSendAt(recurrence.next_due_date, recurrence.amount === null, leadDays);
    const at = later(sendAt, recurrence.approved_at);
    steps.push({ kind: "write", at, cycle: recurrence.next_cycle, dueDate: recurrence.next_due_date });
  }
  steps.sort((a, b) => a.at.getTime() - b.at.getTime() || STEP_ORDER[a.kind] - STEP_ORDER[b.kind]);
  return steps[0] ?? null;
}

/**
 * Sets `recurrence`'s `next_run_at` to its next step's time, read from its rows as `tx` sees them: every change of a
 * recurrence outside the engine (approval, a cycle's amount set, a cancel) ends with it, in its own transaction.
 * @returns the time written (null: nothing left to do)
 */
export async function refreshNextRunAt(
  deps: Pick<UseCaseDeps, "config">,
  tx: Repositories,
  recurrence: Recurrence,
): Promise<Date | null> {
  const step = nextEngineStep(recurrence, await tx.recurrences.findOpenCycles(recurrence.id), leadDays(deps));
  return keepNextRunAt(tx, recurrence, step);
}

/** Writes `step`'s time as `recurrence`'s `next_run_at`, unless it is that already; returns it. */
async function keepNextRunAt(tx: Repositories, recurrence: Recurrence, step: EngineStep | null): Promise<Date | null> {
  const nextRunAt = step?.at ?? null;
  if (recurrence.next_run_at?.getTime() !== nextRunAt?.getTime()) {
    await tx.recurrences.setRecurrenceNextRunAt(recurrence.id, nextRunAt);
  }
  return nextRunAt;
}

function leadDays(deps: Pick<UseCaseDeps, "config">): number {
  return deps.config.recurrenceLeadDays;
}

/** Options of {@link runRecurrence}. */
export interface RunRecurrenceOptions {
  /** Stop after this many steps, as a run cut short would (tests of the engine's restarts); default no limit. */
  maxSteps?: number;
}

/**
 * Runs recurrence `id`'s steps due at or before `until`, one by one in their order, each in a transaction of its own
 * under the recurrence's lock, then writes its `next_run_at` (the time of the first step left). Any number of runs may
 * overlap (the real-time sweep, a clock's advance, a merchant's request): the lock orders them, and each step is read
 * again under it.
 * @param until - the time to run up to: real time for the sweep, the time a test clock advances to
 * @returns how many steps this call took
 * @throws Error when a debit's payment was notified but is settled elsewhere (a repeat of a notification whose first
 *   copy waits for the worker): a later run finds it settled; the driver's error otherwise (the step's transaction
 *   rolled back, nothing half-done)
 */
export async function runRecurrence(
  deps: UseCaseDeps,
  id: string,
  until: Date,
  options: RunRecurrenceOptions = {},
): Promise<number> {
  const maxSteps = options.maxSteps ?? Infinity;
  // The live cycles registered at their bank by this run: their send step then only marks them sent.
  const registered = new Set<string>();
  for (let steps = 0; ;) {
    const taken = await deps.repos.transaction(async (tx): Promise<(StepTaken & { recurrence: Recurrence }) | null> => {
      const recurrence = await tx.recurrences.lockRecurrence(id);
      if (recurrence === undefined) return null;
      const step = nextEngineStep(recurrence, await tx.recurrences.findOpenCycles(id), leadDays(deps));
      if (step === null || step.at > until || steps >= maxSteps) {
        await keepNextRunAt(tx, recurrence, step);
        return null;
      }
      // A live cycle is registered at its bank outside this transaction, the lock released (DESIGN §9).
      if (
        step.kind === "send" &&
        recurrence.bank_recurrence_id !== null &&
        !registered.has(step.cycle.transaction_id)
      ) {
        return { recurrence, deliveryIds: [], register: step.cycle };
      }
      return { recurrence, ...(await takeStep(deps, tx, recurrence, step)) };
    });
    if (taken === null) return steps;
    if (taken.register !== undefined) {
      const refused = await registerCycleAtBank(deps, taken.recurrence, taken.register);
      if (refused !== null) await failRefusedCycle(deps, id, taken.register, refused);
      registered.add(taken.register.transaction_id);
      continue;
    }
    steps += 1;
    await enqueueDeliveries(deps, taken.deliveryIds);
    if (taken.debit !== undefined) await debitCycle(deps, taken.recurrence, taken.debit.cycle, taken.debit.at);
  }
}

/**
 * What a step wrote: deliveries to enqueue after commit, and the sandbox debit to notify after it, if any; or, writing
 * nothing, the live cycle to register at its bank before its send step.
 */
interface StepTaken {
  deliveryIds: string[];
  debit?: { cycle: OpenCycle; at: Date };
  register?: OpenCycle;
}

/** Takes `step` of `recurrence` (locked) with `tx`. */
async function takeStep(
  deps: UseCaseDeps,
  tx: Repositories,
  recurrence: Recurrence,
  step: EngineStep,
): Promise<StepTaken> {
  const now = deps.now();
  switch (step.kind) {
    case "expire": {
      const expired = await tx.recurrences.endRecurrenceRow(recurrence.id, { status: "expired" }, step.at);
      return recordRecurrenceEvent(tx, expired, "recurrence.expired", now);
    }
    case "write": {
      const amount = recurrence.amount ?? recurrence.minimum_amount;
      if (amount === null) throw new Error(`recurrence ${recurrence.id} has neither amount nor minimum_amount`);
      await writeCycle(deps, tx, recurrence, { cycle: step.cycle, dueDate: step.dueDate, amount }, step.at);
      return { deliveryIds: [] };
    }
    case "send": {
      const sent = await tx.recurrences.markCycleChargeSent(step.cycle.transaction_id, step.at);
      if (sent === null) return { deliveryIds: [] };
      return recordTransactionEvent(tx, sent, "transaction.created", now);
    }
    case "close":
      await tx.recurrences.updateCycle(step.cycle.transaction_id, {
        attempts: step.cycle.attempts,
        next_attempt_at: null,
      });
      return { deliveryIds: [] };
    case "debit":
      // The sandbox plays the payer's bank: it refuses an amount ending in 13, as it refuses such a refund.
      if (sandboxRefuses(step.cycle.amount)) return recordFailedDebit(deps, tx, recurrence, step.cycle, step.at);
      return { deliveryIds: [], debit: { cycle: step.cycle, at: step.at } };
  }
}

/**
 * Writes cycle `next.cycle` of `recurrence` (locked), due on `next.dueDate`, for `next.amount` centavos, at `at`: its
 * charge (`scheduled`, type `recurring`, the recurrence's customer and postback URL, no BR Code: the payer's bank
 * debits it) with its cycle row, and the recurrence's move to the cycle after (none past its end date), in `tx`.
 * @returns the charge written
 * @throws a unique violation on `(recurrence_id, due_date)` when the cycle was written before (nothing written)
 */
export async function writeCycle(
  deps: UseCaseDeps,
  tx: Repositories,
  recurrence: Recurrence,
  next: { cycle: number; dueDate: string; amount: number },
  at: Date,
): Promise<Transaction> {
  const key = deps.config.encryptionKey;
  const id = newId("transaction", deps.now().getTime());
  const document = parseTaxDocument(
    decryptDocument(key, recurrence.customer_document, `${recurrence.id}:customer_document`),
  );
  const customerDocument = chargeDocumentColumns(key, id, "customer_document", document);
  const lastDay = lastDebitDate(next.dueDate, recurrence.retry_policy);
  const expiresAt = endOfSaoPauloDay(lastDay);
  const charge = newChargeRow({
    id,
    store_id: recurrence.store_id,
    mode: recurrence.mode,
    status: "scheduled",
    type: "recurring",
    amount: next.amount,
    description: recurrence.description,
    txid: generateTxid(),
    br_code: "",
    qr_code_png_base64: "",
    customer_name: recurrence.customer_name,
    customer_document: customerDocument.stored,
    customer_document_masked: customerDocument.masked,
    postback_url: recurrence.postback_url,
    expires_in: Math.round((expiresAt.getTime() - at.getTime()) / 1000),
    expires_at: expiresAt,
    due_terms: {
      date: next.dueDate,
      days_after_due: DAYS_AFTER_DUE[recurrence.retry_policy],
      fine: null,
      interest: null,
      reduction: null,
      discount: null,
      last_payable_date: lastDay,
    },
    acquirer_id: recurrence.acquirer_id,
    recurrence_id: recurrence.id,
    created_at: at,
  });
  await tx.recurrences.insertCycle(charge, {
    transaction_id: id,
    recurrence_id: recurrence.id,
    due_date: next.dueDate,
    attempts: 0,
    next_attempt_at: attemptAt(next.dueDate, 0),
    bank_checked_at: null,
  });
  const cycle = next.cycle + 1;
  await tx.recurrences.moveToNextCycle(recurrence.id, { cycle, dueDate: cycleDueDateWithin(recurrence, cycle) }, at);
  return charge;
}

/**
 * Registers `cycle`'s charge of live recurrence `recurrence` at its bank (`cobr`, DESIGN §14 "Live") before its send
 * step, holding no lock and outside any transaction (DESIGN §9: no bank call under a row lock): its txid was chosen
 * when the cycle was written, so registering it again (a run after a crash, or one overlapping) reads the bank's
 * charge back instead of making a second one.
 * @returns null once the bank holds it; the bank's refusal (`acquirer_rejected`, definitive: a request the bank
 *   refuses is refused again) for the caller to fail the cycle
 * @throws ApiError `acquirer_unavailable` (the bank unreachable or failing: the next run tries again); Error when the
 *   cycle's bank or charge is gone
 */
async function registerCycleAtBank(
  deps: UseCaseDeps,
  recurrence: Recurrence,
  cycle: OpenCycle,
): Promise<ApiError | null> {
  const bank = (await acquirerOfRow(deps, recurrence.acquirer_id, recurrence.mode))?.recurrences;
  const charge = await deps.repos.charges.findChargeById(cycle.transaction_id);
  if (bank === undefined || recurrence.bank_recurrence_id === null || charge === undefined) {
    throw new Error(`cycle ${cycle.transaction_id} of live recurrence ${recurrence.id} has no bank or charge`);
  }
  try {
    await bank.registerCycle({
      txid: charge.txid,
      bankRecurrenceId: recurrence.bank_recurrence_id,
      dueDate: cycle.due_date,
      amount: charge.amount,
      description: charge.description,
    });
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === "acquirer_rejected") return err;
    throw err;
  }
}

/**
 * Fails live cycle `cycle` of recurrence `id` whose bank refused its charge (`refused`), under the recurrence's lock:
 * its charge, still `scheduled`, is `failed` (`failure_reason` `rejected_by_acquirer`) with `transaction.failed`, and
 * the cycle closed; the recurrence goes on with its next cycle. Nothing when a cancel or another run ended it first.
 */
async function failRefusedCycle(deps: UseCaseDeps, id: string, cycle: OpenCycle, refused: ApiError): Promise<void> {
  const now = deps.now();
  const deliveryIds = await deps.repos.transaction(async (tx) => {
    await tx.recurrences.lockRecurrence(id);
    const failed = await tx.recurrences.markCycleChargeFailed(cycle.transaction_id, now, {
      from: "scheduled",
      reason: "rejected_by_acquirer",
    });
    if (failed === null) return [];
    await tx.recurrences.updateCycle(cycle.transaction_id, { attempts: cycle.attempts, next_attempt_at: null });
    return (await recordTransactionEvent(tx, failed, "transaction.failed", now)).deliveryIds;
  });
  deps.logger.warn("the bank refused a cycle charge; the cycle failed", {
    recurrence_id: id,
    transaction_id: cycle.transaction_id,
    reason: refused.message,
  });
  await enqueueDeliveries(deps, deliveryIds);
}

/**
 * Records a failed debit of `cycle` at `at` (the caller holds the recurrence's lock): the next retry when the policy
 * has one left, else the charge `failed` with `transaction.failed` and the cycle closed.
 * @param options.final - the payer's bank will try no more (a live cycle its bank rejected or let expire)
 * @returns the deliveries to enqueue after commit, and whether a retry follows
 */
export async function recordFailedDebit(
  deps: UseCaseDeps,
  tx: Repositories,
  recurrence: Recurrence,
  cycle: OpenCycle,
  at: Date,
  options: { final?: boolean } = {},
): Promise<FailedDebit> {
  const attempts = cycle.attempts + 1;
  if (!options.final && attempts < maxAttempts(recurrence.retry_policy)) {
    const retryAt = attemptAt(cycle.due_date, attempts);
    await tx.recurrences.updateCycle(cycle.transaction_id, { attempts, next_attempt_at: retryAt });
    return { deliveryIds: [], retryAt };
  }
  await tx.recurrences.updateCycle(cycle.transaction_id, { attempts, next_attempt_at: null });
  const failed = await tx.recurrences.markCycleChargeFailed(cycle.transaction_id, at, {
    from: "pending",
    reason: "debit_failed",
  });
  if (failed === null) return { deliveryIds: [], retryAt: null };
  return { ...(await recordTransactionEvent(tx, failed, "transaction.failed", deps.now())), retryAt: null };
}

/** What {@link recordFailedDebit} wrote: deliveries to enqueue after commit, and when the retry is due (null: none). */
export interface FailedDebit {
  deliveryIds: string[];
  retryAt: Date | null;
}

/**
 * Has the sandbox debit `cycle` of `recurrence` at `at`: a payment notification through the inbound path (its
 * end-to-end id a function of the cycle and the attempt), processed at once so that the payment settles the charge
 * the one way payments do (`transaction.paid`, the ledger's credit); then, under the recurrence's lock, the cycle is
 * closed, or the debit recorded as failed when the payment could not settle the pending charge.
 * @throws Error when the notification was a repeat whose first copy is not settled yet (see {@link runRecurrence})
 */
async function debitCycle(deps: UseCaseDeps, recurrence: Recurrence, cycle: OpenCycle, at: Date): Promise<void> {
  const charge = await deps.repos.charges.findChargeById(cycle.transaction_id);
  if (charge === undefined) throw new Error(`the charge of cycle ${cycle.transaction_id} is gone`);
  const document =
    charge.customer_document === null
      ? null
      : decryptDocument(deps.config.encryptionKey, charge.customer_document, `${charge.id}:customer_document`);
  const items = await postSandboxPayment(deps, {
    txid: charge.txid,
    amount: charge.amount,
    paidAt: at,
    payer: { name: charge.customer_name ?? SANDBOX_PAYER_NAME, document },
    seed: `${charge.id}:${cycle.attempts}`,
  });
  const outcomes: string[] = [];
  for (const item of items) outcomes.push(await processInboxItem(deps, item));
  const taken = await deps.repos.transaction(async (tx) => {
    const locked = await tx.recurrences.lockRecurrence(recurrence.id);
    const open = (await tx.recurrences.findOpenCycles(recurrence.id)).find(
      (candidate) => candidate.transaction_id === cycle.transaction_id,
    );
    // Another run finished this attempt meanwhile.
    if (locked === undefined || open === undefined || open.attempts !== cycle.attempts) return { deliveryIds: [] };
    if (open.status !== "pending") {
      await tx.recurrences.updateCycle(open.transaction_id, { attempts: open.attempts + 1, next_attempt_at: null });
      return { deliveryIds: [] };
    }
    if (outcomes.length === 0) {
      throw new Error(`the debit of cycle ${cycle.transaction_id} was notified before and is not settled yet`);
    }
    return recordFailedDebit(deps, tx, locked, open, at);
  });
  await enqueueDeliveries(deps, taken.deliveryIds);
}

/** Recurrences on real time read per round trip by {@link runDueRecurrences}. */
const SWEEP_BATCH_SIZE = 100;

/**
 * The engine's sweep on real time (the worker's repeatable `recurrence-engine` job): runs every recurrence without a
 * test clock whose `next_run_at` has passed, soonest first, read in batches through their partial index
 * (`recurrences_due_idx`), so a tick reads only what is due whatever the number of recurrences. One recurrence that
 * fails is logged and left for the next tick; the others run.
 * @returns how many recurrences it ran
 */
export async function runDueRecurrences(deps: UseCaseDeps): Promise<number> {
  const now = deps.now();
  const seen = new Set<string>();
  for (;;) {
    const due = await deps.repos.recurrences.findDueRecurrenceIds(now, SWEEP_BATCH_SIZE);
    const fresh = due.filter((id) => !seen.has(id));
    if (fresh.length === 0) break;
    for (const id of fresh) {
      seen.add(id);
      try {
        await runRecurrence(deps, id, now);
      } catch (err) {
        deps.logger.error("recurrence engine step failed; the next tick runs it again", { recurrence_id: id, err });
      }
    }
    if (due.length < SWEEP_BATCH_SIZE) break;
  }
  return seen.size;
}
