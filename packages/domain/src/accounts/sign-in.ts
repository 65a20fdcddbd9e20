/**
 * Use case: sign-in with email and password (SPEC `sign-in/email`, DESIGN §3). An unknown address, an account
 * without a password and a wrong password all answer the same `invalid_credentials` after the same bcrypt work.
 * With 2FA on, the password opens a challenge instead of a session, unless the device is trusted. Rate limits and
 * the consecutive-failure lock are the HTTP layer's (they live in Redis).
 */
import type { User } from "@lm/db";
import { ApiError } from "../errors";
import { normalizeEmail } from "../email";
import { createChallenge, type IssuedChallenge } from "../two-factor/challenges";
import type { AccountDeps } from "./account-deps";
import { verifyPassword } from "./credentials";
import { createSession, type ClientInfo, type IssuedSession } from "./sessions";
import { useTrustedDevice, type IssuedTrustedDevice } from "./trusted-devices";

/** The outcome of a right password: a session, or a 2FA challenge to pass first. */
export type SignInOutcome =
  | { kind: "signed_in"; user: User; session: IssuedSession; trustedDevice: IssuedTrustedDevice | null }
  | { kind: "two_factor"; challenge: IssuedChallenge };

/**
 * The user whose address and password these are.
 * @throws ApiError `invalid_credentials` for an unknown address, an account without a password or a wrong password
 */
export async function checkCredentials(
  deps: Pick<AccountDeps, "repos" | "config">,
  input: { email: string; password: string },
): Promise<User> {
  const user = await deps.repos.accounts.findUserByEmail(normalizeEmail(input.email));
  const matches = await verifyPassword(input.password, user?.password_hash ?? null, deps.config.bcryptCost);
  if (!user || !matches) throw new ApiError("invalid_credentials", "The email or password is incorrect.");
  return user;
}

/**
 * Re-checks the signed-in user's password before a security change (2FA enable, disable, new backup codes).
 * @throws ApiError `invalid_credentials` when it is wrong
 */
export async function confirmPassword(deps: Pick<AccountDeps, "config">, user: User, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.password_hash, deps.config.bcryptCost))) {
    throw new ApiError("invalid_credentials", "The password is incorrect.");
  }
}

/**
 * Signs in: checks the credentials, then opens a new session (never reuses one) or, with 2FA on and no live
 * trusted-device token of this user, a challenge. A trusted-device token that is used is rotated.
 * @param input.rememberMe - persistent cookie and a 30-day cap; false: browser-session cookie and 24 h
 * @param input.trustedDeviceToken - the `lm.trust_device` cookie, if any
 * @throws ApiError `invalid_credentials` (see {@link checkCredentials})
 */
export async function signIn(
  deps: AccountDeps,
  input: { email: string; password: string; rememberMe: boolean; client: ClientInfo; trustedDeviceToken?: string },
): Promise<SignInOutcome> {
  const user = await checkCredentials(deps, input);
  const now = deps.now();
  let trustedDevice: IssuedTrustedDevice | null = null;
  if (user.two_factor_enabled_at !== null) {
    const token = input.trustedDeviceToken;
    trustedDevice = token === undefined ? null : await useTrustedDevice(deps.repos, { userId: user.id, token, now });
    if (!trustedDevice) {
      return {
        kind: "two_factor",
        challenge: await createChallenge(deps.repos, { userId: user.id, persistent: input.rememberMe, now }),
      };
    }
  }
  const session = await createSession(deps.repos, {
    userId: user.id,
    persistent: input.rememberMe,
    client: input.client,
    now,
  });
  return { kind: "signed_in", user, session, trustedDevice };
}
