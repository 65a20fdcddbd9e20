/**
 * `seller:create --name <legal name> --document <CPF or CNPJ> [--email <email>]`: registers a seller and its store.
 */
import { createSeller } from "@lm/domain";
import { requiredOption, type Command } from "./command";

/** Creates a seller (KYC pending) and its default store. */
export const sellerCreate: Command = {
  usage: "seller:create --name <legal name> --document <CPF or CNPJ> [--email <email>]",
  options: ["name", "document", "email"],
  async run(ctx) {
    const email = ctx.options.email;
    const { seller, store } = await createSeller(ctx.repos, ctx.config, {
      name: requiredOption(ctx, "name"),
      document: requiredOption(ctx, "document"),
      email: typeof email === "string" ? email : undefined,
    });
    return {
      text: `Created seller ${seller.id} (store ${store.id}); KYC ${seller.kyc_status}.`,
      json: { seller_id: seller.id, store_id: store.id, kyc_status: seller.kyc_status },
    };
  },
};
