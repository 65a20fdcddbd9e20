/**
 * `seller:kyc <sel_...> approved|rejected|pending`: records the outcome of a seller's KYC review.
 */
import { isId, notFound, setSellerKyc } from "@lm/domain";
import { requiredPositional, type Command } from "./command";

const STATUSES = ["approved", "rejected", "pending"] as const;

/** Sets a seller's KYC status; live API keys need `approved`. */
export const sellerKyc: Command = {
  usage: "seller:kyc <sel_...> approved|rejected|pending",
  options: [],
  async run(ctx) {
    const sellerId = requiredPositional(ctx, 0, "seller");
    const status = requiredPositional(ctx, 1, "status", STATUSES);
    if (!isId("seller", sellerId)) throw notFound("seller");
    const seller = await setSellerKyc(ctx.repos, sellerId, status);
    return {
      text: `Seller ${seller.id} KYC is now ${seller.kyc_status}.`,
      json: { seller_id: seller.id, kyc_status: seller.kyc_status },
    };
  },
};
