/**
 * Use case: a seller's owner creates an account from an invite (SPEC "Auth and account", Authentication 2). The
 * invite is claimed, the user created as `owner` of the invite's seller with the current terms accepted, a session
 * opened and the verification mail sent, all but the mail in one transaction.
 */
import { isUniqueViolation, type User } from "@lm/db";
import { verifyEmailMail } from "@lm/mail";
import { randomUUID } from "node:crypto";
import { ApiError, validationFailed } from "../errors";
import { normalizeEmail } from "../email";
import { sendMailSafely, type AccountDeps } from "./account-deps";
import { hashPassword } from "./credentials";
import { claimInvite, findActiveInvite } from "./invites";
import { issueMailedToken, mailedLink } from "./mailed-tokens";
import { createSession, type ClientInfo, type IssuedSession } from "./sessions";

/**
 * The dashboard's page that mailed verification links open, on `PUBLIC_BASE_URL` (DESIGN §15); it calls
 * `GET /v1/me/auth/verify-email` with the token.
 */
export const VERIFY_EMAIL_PAGE = "/dashboard/verify-email";

/** The new user and their first session. */
export interface SignedUp {
  user: User;
  session: IssuedSession;
}

/**
 * Creates the owner account named by an invite.
 * @param input.password - 12 to 128 characters (checked by the route's schema)
 * @throws ApiError `resource_not_found` for an inactive invite; `validation_failed` (param `email`) when `email` is
 *   not the invited address; `invalid_state` when an account with that address already exists
 */
export async function signUp(
  deps: AccountDeps,
  input: { name: string; email: string; password: string; inviteToken: string; client: ClientInfo },
): Promise<SignedUp> {
  const now = deps.now();
  const email = normalizeEmail(input.email);
  const invite = await findActiveInvite(deps.repos, input.inviteToken, now);
  if (invite.email !== email) throw validationFailed("Sign up with the address the invitation was sent to.", "email");
  const passwordHash = await hashPassword(input.password, deps.config.bcryptCost);
  let created: SignedUp & { verificationToken: string };
  try {
    created = await deps.repos.transaction(async (tx) => {
      await claimInvite(tx, invite.id, now);
      const user = await tx.accounts.insertUser({
        id: randomUUID(),
        email,
        name: input.name.trim(),
        password_hash: passwordHash,
        role: "owner",
        seller_id: invite.seller_id,
        terms_version: deps.config.termsVersion,
        terms_accepted_at: now,
      });
      const session = await createSession(tx, { userId: user.id, persistent: true, client: input.client, now });
      const verificationToken = await issueMailedToken(tx, { userId: user.id, purpose: "email_verification", now });
      return { user, session, verificationToken };
    });
  } catch (err) {
    if (isUniqueViolation(err, "email"))
      throw new ApiError("invalid_state", "An account with this email already exists.");
    throw err;
  }
  const link = mailedLink(deps.config.publicBaseUrl, VERIFY_EMAIL_PAGE, { token: created.verificationToken });
  await sendMailSafely(deps, verifyEmailMail(email, created.user.name, link), "email verification");
  return { user: created.user, session: created.session };
}
