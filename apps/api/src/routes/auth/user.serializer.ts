/**
 * Wire form of a user (SPEC "User"): exactly `{id, email, name, emailVerified, role, seller_id}`.
 */
import type { User } from "@lm/db";

/** The user object of sign-up, sign-in and verify-totp replies. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role: User["role"];
  seller_id: string | null;
}

/** Serialises `user`; nothing else of the row (hashes, 2FA state) ever leaves. */
export function serializeUser(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.email_verified_at !== null,
    role: user.role,
    seller_id: user.seller_id,
  };
}
