/**
 * `api-key:create --seller <sel_...> --mode test|live [--name <name>]`: issues an API key and prints it once.
 */
import { createApiKey, findSellerStore, isId, notFound, validationFailed, type Mode } from "@lm/domain";
import { requiredOption, type Command } from "./command";

/** Issues a key for the seller's store; live keys need approved KYC. */
export const apiKeyCreate: Command = {
  usage: "api-key:create --seller <sel_...> --mode test|live [--name <name>]",
  options: ["seller", "mode", "name"],
  async run(ctx) {
    const sellerId = requiredOption(ctx, "seller");
    const mode = requiredOption(ctx, "mode");
    if (mode !== "test" && mode !== "live") throw validationFailed("--mode must be test or live.", "mode");
    const name = typeof ctx.options.name === "string" ? ctx.options.name : `ops ${mode} key`;
    if (name.length < 1 || name.length > 64) throw validationFailed("--name must have 1 to 64 characters.", "name");
    if (!isId("seller", sellerId)) throw notFound("seller");
    const store = await findSellerStore(ctx.repos, sellerId);
    const { apiKey, key } = await createApiKey(ctx.repos, {
      storeId: store.id,
      name,
      mode: mode as Mode,
      now: ctx.now,
    });
    return {
      text: `Created ${mode} key ${apiKey.id} for ${sellerId}. It is shown only this once:\n${key}`,
      json: { id: apiKey.id, seller_id: sellerId, store_id: store.id, mode, key },
    };
  },
};
