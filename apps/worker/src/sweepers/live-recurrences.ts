/**
 * The reconciler's sweep of Pix Automático through banks (DESIGN §9, §14 "Live"): run with the
 * `acquirer-reconciliation` job, it reads back from every bank that has served a mode the live recurrences still awaiting the payer and the
 * cycles still pending after their debit, a page of each per bank, and stores what changed as the lost callback would
 * have (`reconcileLiveRecurrences`). One bank's failure is logged and does not stop the others.
 */
import { reconcileLiveRecurrences, type UseCaseDeps } from "@lm/domain";

/**
 * Runs {@link reconcileLiveRecurrences} for every serving bank.
 * @returns how many reports were stored
 */
export async function reconcileLiveRecurrencesOfBanks(deps: UseCaseDeps): Promise<number> {
  let total = 0;
  for (const acquirer of await deps.repos.acquirers.listServingBankAcquirers()) {
    try {
      const stored = await reconcileLiveRecurrences(deps, acquirer);
      if (stored > 0) deps.logger.warn("reconciliation found Pix Automático changes no callback said", { stored });
      total += stored;
    } catch (err) {
      deps.logger.error("Pix Automático reconciliation failed", { acquirer: acquirer.slug, err });
    }
  }
  return total;
}
