/**
 * Request schemas of the sign-up, sign-in and mailed-token routes (SPEC "Auth and account"). Field names follow the
 * spec, including its camelCase auth fields (DESIGN §2). Unknown fields are stripped by `validate`.
 */
import Joi from "joi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@lm/domain";
import { defineRoute, CROSS_SITE, INVALID_REQUEST, PUBLIC } from "../../http/contract";
import { InviteCheck, SignInResult, Status, UserReply } from "@lm/wire";

/** A new password: 12 to 128 characters (DESIGN §3). */
const newPassword = Joi.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
/** An address as typed at sign-in: normalised (trim, lower case) before use, so no format check here. */
const typedEmail = Joi.string().min(1).max(320).description("Trimmed and lower-cased before use.");
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
  name: Joi.string().min(1).max(200).pattern(/\S/).required().description("Not only whitespace."),
  email: Joi.string().email({ tlds: false }).max(254).required().description("Must be the invited address."),
  password: newPassword.required(),
  accept_terms: Joi.boolean().valid(true).required().messages({ "any.only": '"accept_terms" must be true' }),
  invite_token: token.required(),
});

/** `POST /v1/me/auth/sign-in/email`; `rememberMe` defaults to true. */
export const signInSchema = Joi.object<{ email: string; password: string; rememberMe: boolean }>({
  email: typedEmail.required(),
  password: Joi.string().min(1).max(1024).required(),
  rememberMe: Joi.boolean().default(true).description("false: browser-session cookie and a 24 h session."),
});

/** `GET /v1/me/auth/verify-email` query. */
export const verifyEmailQuery = Joi.object<{ token: string; callbackURL?: string }>({
  token: token.required().description("From the mailed link (24 h, single use)."),
  callbackURL: url.description(
    "http or https; must be on `PANEL_ORIGINS` (400 `validation_failed`, param `callbackURL`).",
  ),
});

/** `POST /v1/me/auth/request-password-reset`. */
export const requestPasswordResetSchema = Joi.object<{ email: string; redirectTo?: string }>({
  email: typedEmail.required(),
  redirectTo: url.description(
    "http or https; must be on `PANEL_ORIGINS` (400 `validation_failed`, param `redirectTo`).",
  ),
});

/** `POST /v1/me/auth/reset-password`. */
export const resetPasswordSchema = Joi.object<{ token: string; newPassword: string }>({
  token: token.required(),
  newPassword: newPassword.required(),
});

/** `GET /v1/me/auth/invites/{token}` path. */
export const inviteParams = Joi.object<{ token: string }>({
  token: token.required().description("The invite token from the mailed link."),
});

/** `signUp`. */
export const signUp = defineRoute({
  method: "post",
  path: "/v1/me/auth/sign-up/email",
  operationId: "signUp",
  tag: "Sign-up and sign-in",
  summary: "Create an owner account from an invite",
  security: PUBLIC,
  body: signUpSchema,
  replies: {
    200: {
      description: "Signed up and signed in.",
      schema: UserReply,
      setCookie: "`lm.session` (HttpOnly, SameSite=Lax).",
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Also when `email` is not the invited address.",
      codes: ["validation_failed"],
    },
    403: CROSS_SITE,
    404: {
      description: "`resource_not_found`: the invite is unknown, expired, used or revoked.",
      codes: ["resource_not_found"],
    },
    409: { description: "`invalid_state`: an account with this email already exists.", codes: ["invalid_state"] },
  },
});

/** `signIn`. */
export const signIn = defineRoute({
  method: "post",
  path: "/v1/me/auth/sign-in/email",
  operationId: "signIn",
  tag: "Sign-up and sign-in",
  summary: "Sign in with email and password",
  security: PUBLIC,
  body: signInSchema,
  replies: {
    200: {
      description:
        "Signed in (`{user}`, sets `lm.session`), or, with 2FA on and no trusted device, `{twoFactorRedirect: true}` (sets `lm.two_factor`).",
      schema: SignInResult,
      setCookie: "`lm.session`, or `lm.two_factor`; a used `lm.trust_device` is rotated.",
    },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description: "`invalid_credentials`: unknown address or wrong password (indistinguishable).",
      codes: ["invalid_credentials"],
    },
    403: CROSS_SITE,
    429: {
      description:
        "`rate_limited`: over 5 attempts per minute for this email or IP, or 20 failures in a row locked the address for 15 min.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `signOut`. */
export const signOut = defineRoute({
  method: "post",
  path: "/v1/me/auth/sign-out",
  operationId: "signOut",
  tag: "Sign-up and sign-in",
  summary: "End the current session",
  description: "Answers 200 with or without a session.",
  security: [{ panelSession: [] }, {}],
  replies: {
    200: { description: "Signed out; the cookie is cleared.", schema: Status },
  },
  errors: {
    403: CROSS_SITE,
  },
});

/** `checkInvite`. */
export const checkInvite = defineRoute({
  method: "get",
  path: "/v1/me/auth/invites/{token}",
  operationId: "checkInvite",
  tag: "Sign-up and sign-in",
  summary: "Look up an active invite",
  security: PUBLIC,
  params: inviteParams,
  replies: {
    200: { description: "The invite is active.", schema: InviteCheck },
  },
  errors: {
    400: INVALID_REQUEST,
    404: {
      description: "`resource_not_found`: unknown, expired, used or revoked (indistinguishable).",
      codes: ["resource_not_found"],
    },
    429: {
      description: "`rate_limited`: over 5 look-ups per minute from this IP.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `verifyEmail`. */
export const verifyEmail = defineRoute({
  method: "get",
  path: "/v1/me/auth/verify-email",
  operationId: "verifyEmail",
  tag: "Sign-up and sign-in",
  summary: "Verify the email address (mailed link)",
  security: PUBLIC,
  query: verifyEmailQuery,
  replies: {
    200: { description: "Verified.", schema: Status },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Also for an unknown, used or expired token (param `token`).",
      codes: ["validation_failed"],
    },
  },
});

/** `requestPasswordReset`. */
export const requestPasswordReset = defineRoute({
  method: "post",
  path: "/v1/me/auth/request-password-reset",
  operationId: "requestPasswordReset",
  tag: "Sign-up and sign-in",
  summary: "Mail a password reset link",
  description:
    "Always 200 for a valid body, whether or not the account exists or a mail was sent (at most 3 per address per hour).",
  security: PUBLIC,
  body: requestPasswordResetSchema,
  replies: {
    200: { description: "Accepted.", schema: Status },
  },
  errors: {
    400: INVALID_REQUEST,
    403: CROSS_SITE,
  },
});

/** `resetPassword`. */
export const resetPassword = defineRoute({
  method: "post",
  path: "/v1/me/auth/reset-password",
  operationId: "resetPassword",
  tag: "Sign-up and sign-in",
  summary: "Set a new password with a mailed token",
  description: "Revokes every session and trusted device of the user.",
  security: PUBLIC,
  body: resetPasswordSchema,
  replies: {
    200: { description: "Password changed; the session cookie is cleared.", schema: Status },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Also for an unknown, used or expired token (param `token`).",
      codes: ["validation_failed"],
    },
    403: CROSS_SITE,
  },
});
