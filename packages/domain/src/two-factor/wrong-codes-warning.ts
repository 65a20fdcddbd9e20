/**
 * The owner's warning when a run of wrong second-factor codes is seen on their account: whoever
 * enters them passed the password, so the owner should change it. The API's second-factor limit counts the run and
 * calls this once per run.
 */
import { wrongSecondFactorsMail } from "@lm/mail";
import { sendMailSafely, type AccountDeps } from "../accounts/account-deps";

/**
 * Mails user `userId` that `wrongCodes` wrong codes in a row were entered, and logs a security event (no code, no
 * address). A mail transport failure is logged, never thrown.
 */
export async function warnOfWrongSecondFactors(
  deps: Pick<AccountDeps, "repos" | "mailer" | "logger">,
  userId: string,
  wrongCodes: number,
): Promise<void> {
  const user = await deps.repos.accounts.findUserById(userId);
  if (!user) return;
  deps.logger.warn("security event", { event: "two_factor.wrong_codes", user_id: userId, wrong_codes: wrongCodes });
  await sendMailSafely(deps, wrongSecondFactorsMail(user.email, user.name, wrongCodes), "wrong second factors");
}
