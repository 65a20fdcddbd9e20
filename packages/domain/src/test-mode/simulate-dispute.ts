import type { Dispute } from "@lm/db";
import { valorFromCentavos } from "@lm/pix-api";
import { postSandboxNotification, sandboxEndToEndId } from "../acquirers";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { DISPUTE_EXCEEDS_REMAINDER, disputableRemainder } from "../disputes/disputes";
import { ApiError } from "../errors";
import { processInboxItem } from "../settle";
import { findTransaction } from "../transactions/find-transactions";

/**
 * Use case: the payer's bank takes a paid test charge's money back (`POST /v1/transactions/{id}/simulate-dispute`,
 * DESIGN §11). The sandbox notifies an unrequested devolução (`natureza` `MED_FRAUDE`) through the same inbound path
 * as a bank's, and the stored item is processed at once, so the reply carries the dispute it recorded.
 * @param amount - centavos; default the paid amount less what was refunded and disputed
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found`; `invalid_state` unless the charge is paid with
 *   at least `amount` not yet refunded or disputed, or when it is a bank's (a test bank raises its own)
 */
export async function simulateDispute(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  amount: number | undefined,
): Promise<Dispute> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Disputes can be simulated with test keys only.");
  const charge = await findTransaction(deps.repos, scope, id);
  if (charge.acquirer_id !== null) {
    throw new ApiError("invalid_state", "This transaction is registered at a bank: its disputes come from the bank.");
  }
  const left = disputableRemainder(charge);
  const disputed = amount ?? left;
  if ((charge.status !== "paid" && charge.status !== "refunded") || charge.payment_end_to_end_id === null) {
    throw new ApiError("invalid_state", "Only a paid transaction can be disputed.");
  }
  if (disputed < 1 || disputed > left) throw amountRefused(left);
  const now = deps.now();
  const returnId = sandboxEndToEndId(now, { prefix: "D" });
  const items = await postSandboxNotification(deps, {
    pix: [
      {
        endToEndId: charge.payment_end_to_end_id,
        txid: charge.txid,
        valor: valorFromCentavos(charge.payment_amount ?? charge.amount),
        horario: (charge.paid_at ?? now).toISOString(),
        devolucoes: [
          {
            id: `MED${returnId.slice(-11)}`,
            rtrId: returnId,
            valor: valorFromCentavos(disputed),
            natureza: "MED_FRAUDE",
            horario: { solicitacao: now.toISOString(), liquidacao: now.toISOString() },
            status: "DEVOLVIDO",
            motivo: "Devolução especial (MED) simulada pelo sandbox",
          },
        ],
      },
    ],
  });
  for (const item of items) {
    // Another dispute may have taken the remainder since it was read: the one under the charge's lock decides.
    if ((await processInboxItem(deps, item)) === DISPUTE_EXCEEDS_REMAINDER) {
      throw amountRefused(disputableRemainder(await findTransaction(deps.repos, scope, id)));
    }
  }
  const recorded = await deps.repos.disputes.findDisputeByEndToEndId(returnId);
  if (recorded === null) throw new Error(`the simulated dispute ${returnId} was not recorded`);
  return recorded;
}

/** The refusal of a simulated dispute larger than `left`, what remains of its charge in centavos. */
function amountRefused(left: number): ApiError {
  return new ApiError("invalid_state", `The amount must be between 1 and ${left}, what is left of this transaction.`, {
    param: "amount",
  });
}
