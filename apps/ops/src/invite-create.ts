/**
 * `invite:create --email <email> (--seller <sel_...> | --seller-name <legal name>)`: invites a seller's owner, mails
 * the link and prints the token once (DESIGN §5). `--seller-name` looks the seller up by its exact legal name
 * (case-insensitive); it does not create one, since a seller needs a document (`seller:create`).
 */
import { createInvite, findSellerForInvite, mailedLink, validationFailed } from "@lm/domain";
import { createMailer, inviteMail } from "@lm/mail";
import { requiredOption, type Command } from "./command";

/** Panel page that invite links open, on `PUBLIC_BASE_URL`; it signs up with the token. */
const SIGN_UP_PAGE = "/sign-up";

/** Creates a 7-day single-use invite. */
export const inviteCreate: Command = {
  usage: "invite:create --email <email> (--seller <sel_...> | --seller-name <legal name>)",
  options: ["email", "seller", "seller-name"],
  async run(ctx) {
    const email = requiredOption(ctx, "email");
    const sellerId = typeof ctx.options.seller === "string" ? ctx.options.seller : undefined;
    const sellerName = typeof ctx.options["seller-name"] === "string" ? ctx.options["seller-name"] : undefined;
    if ((sellerId === undefined) === (sellerName === undefined)) {
      throw validationFailed("Give exactly one of --seller and --seller-name.", "seller");
    }
    const seller = await findSellerForInvite(ctx.db, { sellerId, sellerName });
    const { invite, token } = await createInvite(ctx.db, { email, seller, now: ctx.now });
    const link = mailedLink(ctx.config.publicBaseUrl, SIGN_UP_PAGE, { invite: token });
    const mailer = createMailer(ctx.config);
    try {
      await mailer.send(inviteMail(invite.email, seller.legal_name, link));
    } finally {
      mailer.close();
    }
    return {
      text: `Invited ${invite.email} to ${seller.id} until ${invite.expires_at.toISOString()} (mailed). The token is shown only this once:\n${token}`,
      json: { invite_id: invite.id, seller_id: seller.id, email: invite.email, expires_at: invite.expires_at.toISOString(), token },
    };
  },
};
