/**
 * Use case: sign-in with email and password (SPEC `sign-in/email`, DESIGN §3). An unknown address, an account
 * without a password and a wrong password all answer the same `invalid_credentials` after the same bcrypt work.
 * Rate limits and the consecutive-failure lock are the HTTP layer's (they live in Redis).
 */
import type { User } from "@lm/db";
import { ApiError } from "../errors";
import { normalizeEmail } from "../email";
import type { AccountDeps } from "./account-deps";
import { verifyPassword } from "./credentials";
import { createSession, type ClientInfo, type IssuedSession } from "./sessions";

/** A successful sign-in: the user and a new session. */
export interface SignedIn {
  user: User;
  session: IssuedSession;
}

/**
 * The user whose address and password these are.
 * @throws ApiError `invalid_credentials` for an unknown address, an account without a password or a wrong password
 */
export async function checkCredentials(
  deps: Pick<AccountDeps, "db" | "config">,
  input: { email: string; password: string },
): Promise<User> {
  const user = await deps.db.user.findUnique({ where: { email: normalizeEmail(input.email) } });
  const matches = await verifyPassword(input.password, user?.password_hash ?? null, deps.config.bcryptCost);
  if (!user || !matches) throw new ApiError("invalid_credentials", "The email or password is incorrect.");
  return user;
}

/**
 * Signs in: checks the credentials and opens a new session (never reuses one).
 * @param input.rememberMe - persistent cookie and a 30-day cap; false: browser-session cookie and 24 h
 * @throws ApiError `invalid_credentials` (see {@link checkCredentials})
 */
export async function signIn(
  deps: AccountDeps,
  input: { email: string; password: string; rememberMe: boolean; client: ClientInfo },
): Promise<SignedIn> {
  const user = await checkCredentials(deps, input);
  const session = await createSession(deps.db, {
    userId: user.id,
    persistent: input.rememberMe,
    client: input.client,
    now: deps.now(),
  });
  return { user, session };
}
