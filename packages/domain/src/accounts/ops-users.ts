/**
 * Use case: an operator account (`user:create --role ops`, DESIGN §3 "Roles"): no seller, no password until its
 * owner sets one with the one-time setup token.
 */
import { isUniqueViolation, type User, type Repositories } from "@lm/db";
import { randomUUID } from "node:crypto";
import { ApiError, validationFailed } from "../errors";
import { isEmailAddress, normalizeEmail } from "../email";
import { issuePasswordSetup } from "./password-reset";
import type { AccountDeps } from "./account-deps";

/**
 * Creates an `ops` user and a 24-hour password-setup token.
 * @throws ApiError `validation_failed` (param `email` or `name`); `invalid_state` when the address is taken
 */
export async function createOpsUser(
  deps: Pick<AccountDeps, "config"> & { repos: Repositories },
  input: { email: string; name: string; now: Date },
): Promise<{ user: User; token: string; link: string }> {
  const email = normalizeEmail(input.email);
  if (!isEmailAddress(email)) throw validationFailed("Email is not a valid address.", "email");
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw validationFailed("Name must have 1 to 200 characters.", "name");
  let user: User;
  try {
    user = await deps.repos.accounts.insertUser({
      id: randomUUID(),
      email,
      name,
      role: "ops",
      seller_id: null,
      email_verified_at: input.now,
    });
  } catch (err) {
    if (isUniqueViolation(err, "email"))
      throw new ApiError("invalid_state", "An account with this email already exists.");
    throw err;
  }
  return { user, ...(await issuePasswordSetup(deps, { userId: user.id, now: input.now })) };
}
