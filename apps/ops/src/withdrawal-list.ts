/**
 * `withdrawal:list --seller <sel_...>`: a seller's latest withdrawals (both modes, newest first), each marked `STUCK`
 * when it stayed `pending` or `processing` past WITHDRAWAL_STUCK_AFTER_MS, with the acquirer's last error. The ops API
 * (`GET /v1/ops/withdrawals?stuck=true`) lists the stuck ones of every seller.
 */
import { findStuckWithdrawalIds, isId, listWithdrawalsForOps, notFound } from "@lm/domain";
import { serializeWithdrawal } from "@lm/wire";
import { requiredOption, type Command } from "./command";

/** How many withdrawals are listed. */
const LIMIT = 50;

/** Lists a seller's withdrawals for an operator. */
export const withdrawalList: Command = {
  usage: "withdrawal:list --seller <sel_...>",
  options: ["seller"],
  async run(ctx) {
    const sellerId = requiredOption(ctx, "seller");
    if (!isId("seller", sellerId)) throw notFound("seller");
    const rows = await listWithdrawalsForOps(
      ctx.repos,
      { sellerId, stuck: false, now: ctx.now },
      { orderBy: { id: "desc" }, take: LIMIT },
    );
    const stuckIds = await findStuckWithdrawalIds(ctx.repos, sellerId, ctx.now);
    const lines = rows.map((w) =>
      [
        w.id,
        w.mode,
        w.status,
        `${w.amount} centavos`,
        w.payout_key.key_masked,
        w.created_at.toISOString(),
        stuckIds.has(w.id) ? "STUCK" : "",
        w.submit_error ?? "",
      ]
        .filter((part) => part !== "")
        .join("  "),
    );
    return {
      text: rows.length === 0 ? `No withdrawals for ${sellerId}.` : lines.join("\n"),
      json: {
        seller_id: sellerId,
        withdrawals: rows.map((w) => ({
          ...serializeWithdrawal(w),
          stuck: stuckIds.has(w.id),
          submit_attempts: w.submit_attempts,
          submit_error: w.submit_error,
        })),
      },
    };
  },
};
