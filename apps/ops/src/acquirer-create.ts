/**
 * `acquirer:create <slug>`: registers a payment provider that posts inbound notifications to
 * `/v1/acquirers/<slug>/notifications`, and prints its notification secret once. A valid signature proves who sent a
 * report, not that it holds the money: only the acquirer that registered a charge, refund or payout reports on it
 * (DESIGN §9), so this acquirer's reports on any other row are kept as `acquirer_mismatch`.
 */
import { createAcquirer } from "@lm/domain";
import { requiredPositional, type Command } from "./command";

/** Creates an acquirer with a fresh secret (`sandbox` exists by default, with a secret derived from ENCRYPTION_KEY). */
export const acquirerCreate: Command = {
  usage: "acquirer:create <slug>",
  options: [],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const { acquirer, secret } = await createAcquirer(ctx.repos, ctx.config, slug);
    return {
      text:
        `Created acquirer ${acquirer.id} (${acquirer.slug}); notifications go to /v1/acquirers/${acquirer.slug}/notifications ` +
        `signed in X-Acquirer-Signature. Its secret is shown only this once:\n${secret}`,
      json: { id: acquirer.id, slug: acquirer.slug, secret },
    };
  },
};
