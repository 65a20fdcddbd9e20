import type { Transaction } from "@lm/db";
import { isExpiredAt } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { findTransaction } from "../transactions/find-transactions";
import { cycleSimulated } from "./simulate-payment";

/**
 * Test mode's simulated expiration (DESIGN §12, what `lm trigger transaction.expired` needs): brings the deadline of
 * pending charge `id` to now, so that it reads as `expired` at once and the worker's expiry sweep, within about a
 * second, writes the change and its `transaction.expired` event through the same code as a real deadline.
 * @returns the charge with its new deadline (it serializes as `expired`)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   unless the charge is pending and not registered at a bank (a bank keeps its own deadline), or for a recurrence's
 *   cycle (it never expires)
 */
export async function simulateExpiration(deps: UseCaseDeps, scope: MerchantScope, id: string): Promise<Transaction> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Expirations can be simulated with test keys only.");
  const transaction = await findTransaction(deps.repos, scope, id);
  const now = deps.now();
  if (transaction.acquirer_id !== null) {
    throw new ApiError("invalid_state", "This transaction is registered at a bank, which keeps its deadline.");
  }
  if (transaction.type === "recurring") throw cycleSimulated("expired");
  const moved = isExpiredAt(transaction, now) ? undefined : await deps.repos.charges.moveChargeDeadlineTo(id, now);
  if (moved === undefined) throw new ApiError("invalid_state", "Only a pending transaction can expire.");
  return moved;
}
