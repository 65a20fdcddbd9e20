/**
 * Request schemas of the sign-up, sign-in and mailed-token routes (SPEC "Auth and account"). Field names follow the
 * spec, including its camelCase auth fields (DESIGN §2). Unknown fields are stripped by `validate`.
 */
import Joi from "joi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@lm/domain";

/** A new password: 12 to 128 characters (DESIGN §3). */
const newPassword = Joi.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
/** An address as typed at sign-in: normalised (trim, lower case) before use, so no format check here. */
const typedEmail = Joi.string().min(1).max(320);
/** A token from a link or cookie; its shape is checked by the use case, which answers like an unknown one. */
const token = Joi.string().min(1).max(512);
const url = Joi.string()
  .uri({ scheme: ["http", "https"] })
  .max(2048);

/** `POST /v1/me/auth/sign-up/email`. */
export const signUpSchema = Joi.object<{
  name: string;
  email: string;
  password: string;
  accept_terms: true;
  invite_token: string;
}>({
  name: Joi.string().min(1).max(200).pattern(/\S/).required(),
  email: Joi.string().email({ tlds: false }).max(254).required(),
  password: newPassword.required(),
  accept_terms: Joi.boolean().valid(true).required().messages({ "any.only": '"accept_terms" must be true' }),
  invite_token: token.required(),
});

/** `POST /v1/me/auth/sign-in/email`; `rememberMe` defaults to true. */
export const signInSchema = Joi.object<{ email: string; password: string; rememberMe: boolean }>({
  email: typedEmail.required(),
  password: Joi.string().min(1).max(1024).required(),
  rememberMe: Joi.boolean().default(true),
});

/** `GET /v1/me/auth/verify-email` query. */
export const verifyEmailQuery = Joi.object<{ token: string; callbackURL?: string }>({
  token: token.required(),
  callbackURL: url,
});

/** `POST /v1/me/auth/request-password-reset`. */
export const requestPasswordResetSchema = Joi.object<{ email: string; redirectTo?: string }>({
  email: typedEmail.required(),
  redirectTo: url,
});

/** `POST /v1/me/auth/reset-password`. */
export const resetPasswordSchema = Joi.object<{ token: string; newPassword: string }>({
  token: token.required(),
  newPassword: newPassword.required(),
});

/** `GET /v1/me/auth/invites/{token}` path. */
export const inviteParams = Joi.object<{ token: string }>({ token: token.required() });
