/**
 * `user:create --email <email> --name <name> --role ops`: an operator account, and a one-time password-setup token
 * (24 h) that `POST /v1/me/auth/reset-password` accepts (DESIGN §5). Sellers' owners come through invites instead.
 */
import { createOpsUser, validationFailed } from "@lm/domain";
import { requiredOption, type Command } from "./command";

/** Creates an `ops` user without a password and prints the setup token once. */
export const userCreate: Command = {
  usage: "user:create --email <email> --name <name> --role ops",
  options: ["email", "name", "role"],
  async run(ctx) {
    if (requiredOption(ctx, "role") !== "ops") {
      throw validationFailed("--role must be ops; sellers' owners sign up with an invite (invite:create).", "role");
    }
    const { user, token, link } = await createOpsUser(ctx, {
      email: requiredOption(ctx, "email"),
      name: requiredOption(ctx, "name"),
      now: ctx.now,
    });
    return {
      text: `Created ops user ${user.id} (${user.email}). Password-setup token, valid 24 h, shown only this once:\n${token}\n${link}`,
      json: { user_id: user.id, email: user.email, role: user.role, token, link },
    };
  },
};
