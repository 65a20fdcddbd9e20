/**
 * `invite:create --email <email> (--seller <sel_...> | --seller-name <legal name>)`: invites a seller's owner, mails
 * the link to the dashboard's sign-up page and prints the token and that link once (DESIGN §5, §15). `--seller-name` looks the seller up by its exact legal name
 * (case-insensitive); it does not create one, since a seller needs a document (`seller:create`).
 */
import { createInvite, findSellerForInvite, mailedLink, validationFailed } from "@lm/domain";
import { createMailer, inviteMail, type MailMessage } from "@lm/mail";
import { requiredOption, type Command, type CommandContext } from "./command";

/** The dashboard's page that invite links open, on `PUBLIC_BASE_URL`; it signs up with the token (DESIGN §15). */
const SIGN_UP_PAGE = "/dashboard/sign-up";

/**
 * Mails the invite. A transport failure does not lose the invite: the token is still printed for the operator to
 * pass on, and the outcome says so.
 */
async function sendInvite(config: CommandContext["config"], message: MailMessage): Promise<string> {
  const mailer = createMailer(config);
  try {
    await mailer.send(message);
    return "mailed";
  } catch (err) {
    return `not mailed: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    mailer.close();
  }
}

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
    const seller = await findSellerForInvite(ctx.repos, { sellerId, sellerName });
    const { invite, token } = await createInvite(ctx.repos, { email, seller, now: ctx.now });
    const link = mailedLink(ctx.config.publicBaseUrl, SIGN_UP_PAGE, { invite: token });
    const mailed = await sendInvite(ctx.config, inviteMail(invite.email, seller.legal_name, link));
    return {
      text: `Invited ${invite.email} to ${seller.id} until ${invite.expires_at.toISOString()} (${mailed}). The token is shown only this once:\n${token}\nSign-up link (the dashboard's):\n${link}`,
      json: {
        invite_id: invite.id,
        seller_id: seller.id,
        email: invite.email,
        expires_at: invite.expires_at.toISOString(),
        mailed,
        token,
        link,
      },
    };
  },
};
