/**
 * Which acquirer holds a row's money (DESIGN §9 "Only a charge's own acquirer can pay it"): the bank that registered a
 * charge (its `acquirer_id`) or was asked to send a payout, or the in-process sandbox for a row registered at no bank.
 * Only that acquirer's reports (a payment, a refund's or payout's outcome, a dispute) move money.
 */
import type { ProcessableInboxItem } from "@lm/db";
import { SANDBOX_ACQUIRER_SLUG, INBOX_ERRORS } from "../inbound";

/** The acquirer an inbox item came from, as settlement judges what it reports. */
export interface Reporter {
  acquirerId: string;
  /** Whether it is the in-process sandbox, which holds the money of the rows registered at no bank. */
  sandbox: boolean;
  /**
   * The mode of the rows it may settle: the sandbox settles test rows only, a bank the mode it was activated for (a
   * homologation environment may serve `test`), any other acquirer live ones; so no test path can pay a live charge.
   */
  mode: "live" | "test";
}

/** The acquirer of inbox item `item` (its joined acquirer columns) as a {@link Reporter}. */
export function reporterOf(
  item: Pick<ProcessableInboxItem, "acquirer_id" | "acquirer_slug" | "acquirer_mode">,
): Reporter {
  const sandbox = item.acquirer_slug === SANDBOX_ACQUIRER_SLUG;
  return { acquirerId: item.acquirer_id, sandbox, mode: sandbox ? "test" : (item.acquirer_mode ?? "live") };
}

/**
 * Why `reporter` may not report on `row` (a charge, refund or withdrawal; `noun` names it in the detail), or null when
 * it may (DESIGN §9 "Only a charge's own acquirer can pay it"): `mode_mismatch` for a row of the other mode,
 * `acquirer_mismatch` when another acquirer holds its money (the bank of its `acquirer_id`, or the sandbox for a row
 * without one). A signing acquirer's valid signature proves who sent a report, not that it holds the money.
 */
export function reporterAnomaly(
  reporter: Reporter,
  row: { mode: "live" | "test"; acquirer_id: string | null },
  noun: string,
): { result: string; error: string } | null {
  const anomaly = (code: string, detail: string) => ({ result: code, error: `${code}: ${detail}` });
  if (row.mode !== reporter.mode) return anomaly(INBOX_ERRORS.modeMismatch, `${row.mode} ${noun}`);
  const holds = row.acquirer_id === null ? reporter.sandbox : row.acquirer_id === reporter.acquirerId;
  return holds ? null : anomaly(INBOX_ERRORS.acquirerMismatch, `the ${noun} is another acquirer's`);
}
