/**
 * Step-up (SPEC Authentication 4-5, DESIGN §3): a fresh TOTP code and the password make the current session
 * sensitive until `mfa_verified_until` (now + `STEP_UP_WINDOW_SECONDS`); no other session is covered. Some actions
 * always need it; others only while the seller's `webhook` or `account` toggle is on (both default on).
 */
import type { Session, User, Repositories } from "@lm/db";
import { ApiError } from "../errors";
import type { AccountDeps } from "../accounts/account-deps";
import { verifyPassword } from "../accounts/credentials";
import { acceptTotpCode, invalidMfaCode } from "./second-factor";

/**
 * Which rule an action follows: `always` (API key create/rotate, webhook endpoint create, withdrawals, payout-key
 * changes, step-up-prefs change), `webhook` (endpoint update, delete, rotate-secret) or `account` (postback secret
 * rotate, API key delete, session revoke, seller profile change) while the seller's toggle of that name is on.
 */
export type StepUpKind = "always" | "webhook" | "account";

/** The seller's step-up toggles (SPEC "Step-up preferences"). */
export interface StepUpPrefs {
  webhook: boolean;
  account: boolean;
}

/**
 * Confirms the current session with the password and a TOTP code.
 * @returns the end of the step-up window
 * @throws ApiError `mfa_required` when 2FA is not on; `invalid_mfa_code` for a wrong password, or a wrong,
 *   malformed or replayed code
 */
export async function stepUp(
  deps: AccountDeps,
  input: { session: Session; user: User; code: unknown; password: string },
): Promise<Date> {
  const { user } = input;
  if (user.two_factor_enabled_at === null) {
    throw new ApiError("mfa_required", "Turn on two-factor authentication to confirm sensitive actions.");
  }
  if (!(await verifyPassword(input.password, user.password_hash, deps.config.bcryptCost))) throw invalidMfaCode();
  const now = deps.now();
  await acceptTotpCode(deps.repos, deps.config.encryptionKey, { user, code: input.code, now });
  const until = new Date(now.getTime() + deps.config.stepUpWindowSeconds * 1000);
  await deps.repos.accounts.setSessionStepUpUntil(input.session.id, until);
  return until;
}

/**
 * Lets an action of `kind` through only with a live step-up on this session (unless the seller's toggle is off).
 * @throws ApiError `mfa_required` (403)
 */
export async function assertStepUp(
  deps: { repos: Repositories; now: () => Date },
  input: { session: Session; user: User; kind: StepUpKind },
): Promise<void> {
  if (input.kind !== "always" && input.user.seller_id !== null) {
    const prefs = await getStepUpPrefs(deps.repos, input.user.seller_id);
    if (!prefs[input.kind]) return;
  }
  const until = input.session.mfa_verified_until;
  if (until !== null && until > deps.now()) return;
  throw new ApiError("mfa_required", "This action needs a recent confirmation: POST /v1/me/auth/step-up first.");
}

/** The seller's toggles. */
export async function getStepUpPrefs(repos: Repositories, sellerId: string): Promise<StepUpPrefs> {
  const seller = await repos.sellers.getSellerById(sellerId);
  return { webhook: seller.step_up_webhook, account: seller.step_up_account };
}

/** Changes the toggles named in `changes`; returns all of them after the change. */
export async function setStepUpPrefs(
  repos: Repositories,
  sellerId: string,
  changes: Partial<StepUpPrefs>,
): Promise<StepUpPrefs> {
  const seller = await repos.sellers.updateSellerStepUpPrefs(sellerId, changes);
  return { webhook: seller.step_up_webhook, account: seller.step_up_account };
}
