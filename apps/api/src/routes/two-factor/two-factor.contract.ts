/**
 * Request schemas of the two-factor routes (SPEC "Auth and account"). A code must be a string here; whether it is
 * six digits (or a backup code) is the use case's check, answered 401 `invalid_mfa_code` like a wrong code.
 */
import Joi from "joi";
import { defineRoute, CROSS_SITE, INVALID_REQUEST, PANEL_SESSION, PUBLIC } from "../../http/contract";
import { BackupCodes, RecoveryConfirmed, Status, TwoFactorEnrolment, UserReply } from "@lm/wire";

const password = Joi.string().min(1).max(1024);
const code = Joi.string().max(64);
const totpCode = code.description("Six digits (TOTP); anything else is answered 401 `invalid_mfa_code`.");

/** `POST /v1/me/auth/two-factor/enable`; only TOTP exists, so `method` may say `otp` but the answer is TOTP. */
export const enableSchema = Joi.object<{ password: string; method?: "totp" | "otp" }>({
  password: password.required(),
  method: Joi.string().valid("totp", "otp").description("Either way the answer is TOTP."),
});

/** What `verify-totp` and `verify-backup-code` share: a code and whether to trust the device. */
const verifyCodeSchema = Joi.object<{ code: string; trustDevice: boolean }>({
  code: code.required(),
  trustDevice: Joi.boolean().default(false),
});

/** Body of `verify-totp`. */
export const verifyTotpSchema = verifyCodeSchema.keys({ code: totpCode.required() });

/** Body of `verify-backup-code`. */
export const verifyBackupCodeSchema = verifyCodeSchema.keys({
  code: code.required().description("One of the 10-character backup codes; each works once."),
});

/** `disable` and `generate-backup-codes`. */
export const passwordSchema = Joi.object<{ password: string }>({ password: password.required() });

/** `POST /v1/me/auth/step-up`. */
export const stepUpSchema = Joi.object<{ code: string; password: string }>({
  code: totpCode.required(),
  password: password.required(),
});

/** `PUT /v1/me/security/step-up-prefs`: each toggle optional. */
export const stepUpPrefsSchema = Joi.object<{ webhook?: boolean; account?: boolean }>({
  webhook: Joi.boolean(),
  account: Joi.boolean(),
});

/** `POST /v1/me/auth/two-factor/recovery/request`. */
export const recoveryRequestSchema = Joi.object<{ email: string; password: string; redirect_to?: string }>({
  email: Joi.string().min(1).max(320).required(),
  password: password.required(),
  redirect_to: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .max(2048)
    .description("http or https; must be on `PANEL_ORIGINS` (400 `validation_failed`, param `redirect_to`)."),
});

/** `POST /v1/me/auth/two-factor/recovery/confirm`. */
export const recoveryConfirmSchema = Joi.object<{ token: string }>({ token: Joi.string().min(1).max(512).required() });

/** `enableTwoFactor`. */
export const enableTwoFactor = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/enable",
  operationId: "enableTwoFactor",
  tag: "Two-factor and step-up",
  summary: "Start TOTP enrolment",
  description: "2FA is on only after the first valid `verify-totp`.",
  security: PANEL_SESSION,
  body: enableSchema,
  replies: {
    200: { description: "The authenticator URI and 10 backup codes, shown once.", schema: TwoFactorEnrolment },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description: "`authentication_required`: no live `lm.session` cookie. `invalid_credentials`: wrong password.",
      codes: ["authentication_required", "invalid_credentials"],
    },
    403: CROSS_SITE,
    409: { description: "`invalid_state`: 2FA is already on.", codes: ["invalid_state"] },
    429: {
      description: "`rate_limited`: over 5 attempts per minute for this user.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `verifyTotp`. */
export const verifyTotp = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/verify-totp",
  operationId: "verifyTotp",
  tag: "Two-factor and step-up",
  summary: "Complete enrolment, or pass the sign-in challenge, with a TOTP code",
  description:
    "With an `lm.two_factor` challenge cookie: the second sign-in factor (opens a session; `trustDevice` sets `lm.trust_device` for 30 days). Otherwise with a session: completes enrolment and replaces the session. Completing an enrolment after 2FA was turned off locks the seller's withdrawals for 24 h and mails the owners; a first enrolment does not.",
  security: [{ twoFactorChallenge: [] }, { panelSession: [] }],
  body: verifyTotpSchema,
  replies: {
    200: {
      description: "Signed in, or 2FA turned on.",
      schema: UserReply,
      setCookie: "A new `lm.session`; `lm.trust_device` when asked for.",
    },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description:
        "`authentication_required`: no session, or the sign-in challenge is unknown, expired, used or burned (5 tries). `invalid_mfa_code`: wrong, malformed or already used code.",
      codes: ["authentication_required", "invalid_mfa_code"],
    },
    403: CROSS_SITE,
    409: {
      description: "`invalid_state`: enrolment: 2FA is already on, or `enable` was not called.",
      codes: ["invalid_state"],
    },
    429: {
      description:
        "`rate_limited`: over 5 attempts per minute for this user (enrolment) or IP (sign-in), or over 5 failed second factors per minute for the account, counted across every sign-in challenge, enrolment, step-up and disable.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `verifyBackupCode`. */
export const verifyBackupCode = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/verify-backup-code",
  operationId: "verifyBackupCode",
  tag: "Two-factor and step-up",
  summary: "Pass the sign-in challenge with a backup code",
  security: [{ twoFactorChallenge: [] }],
  body: verifyBackupCodeSchema,
  replies: {
    200: {
      description: "Signed in.",
      schema: UserReply,
      setCookie: "A new `lm.session`; `lm.trust_device` when asked for.",
    },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description:
        "`authentication_required`: no challenge cookie, or the challenge is unknown, expired, used or burned. `invalid_mfa_code`: unknown or used backup code.",
      codes: ["authentication_required", "invalid_mfa_code"],
    },
    403: CROSS_SITE,
    429: {
      description:
        "`rate_limited`: over 5 attempts per minute from this IP, or over 5 failed second factors per minute for the account, counted across every sign-in challenge, enrolment, step-up and disable.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `disableTwoFactor`. */
export const disableTwoFactor = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/disable",
  operationId: "disableTwoFactor",
  tag: "Two-factor and step-up",
  summary: "Turn 2FA off",
  description:
    "Ends every session and trusted device of the user. While 2FA is on it needs a live step-up on this session besides the password (403 `mfa_required`), locks the seller's withdrawals for 24 h (`withdrawals_locked_until`, `seller.updated`, a feed item) and mails the user and every other owner. A pending enrolment is dropped with the password alone and locks nothing.",
  security: PANEL_SESSION,
  body: passwordSchema,
  replies: {
    200: {
      description: "2FA is off (and, when it was on, withdrawals are locked for 24 h); the cookies are cleared.",
      schema: Status,
    },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description: "`authentication_required`: no live `lm.session` cookie. `invalid_credentials`: wrong password.",
      codes: ["authentication_required", "invalid_credentials"],
    },
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. `mfa_required`: 2FA is on and this session has no live step-up.",
      codes: ["permission_denied", "mfa_required"],
    },
    409: { description: "`invalid_state`: 2FA is neither on nor pending.", codes: ["invalid_state"] },
    429: {
      description:
        "`rate_limited`: over 5 attempts per minute for this user, or over 5 failed second factors per minute for the account, counted across every sign-in challenge, enrolment, step-up and disable.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `generateBackupCodes`. */
export const generateBackupCodes = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/generate-backup-codes",
  operationId: "generateBackupCodes",
  tag: "Two-factor and step-up",
  summary: "Replace the backup codes",
  security: PANEL_SESSION,
  body: passwordSchema,
  replies: {
    200: { description: "10 new codes, shown once; the old ones stop working.", schema: BackupCodes },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description: "`authentication_required`: no live `lm.session` cookie. `invalid_credentials`: wrong password.",
      codes: ["authentication_required", "invalid_credentials"],
    },
    403: CROSS_SITE,
    409: { description: "`invalid_state`: 2FA is off.", codes: ["invalid_state"] },
    429: {
      description: "`rate_limited`: over 5 attempts per minute for this user.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `requestTwoFactorRecovery`. */
export const requestTwoFactorRecovery = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/recovery/request",
  operationId: "requestTwoFactorRecovery",
  tag: "Two-factor and step-up",
  summary: "Mail a lost-2FA recovery link",
  description:
    "Always 200 for a valid body: it does not reveal whether the account exists. Sellers' owners with 2FA on get the mail (1 h link).",
  security: PUBLIC,
  body: recoveryRequestSchema,
  replies: {
    200: { description: "Accepted.", schema: Status },
  },
  errors: {
    400: INVALID_REQUEST,
    403: CROSS_SITE,
    429: {
      description: "`rate_limited`: over 5 requests per minute from this IP or for this email.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `confirmTwoFactorRecovery`. */
export const confirmTwoFactorRecovery = defineRoute({
  method: "post",
  path: "/v1/me/auth/two-factor/recovery/confirm",
  operationId: "confirmTwoFactorRecovery",
  tag: "Two-factor and step-up",
  summary: "Turn 2FA off with the mailed recovery token",
  description:
    "Ends every session and trusted device, locks the seller's withdrawals for 24 h (`seller.updated`, a feed item) and mails the user and every other owner.",
  security: PUBLIC,
  body: recoveryConfirmSchema,
  replies: {
    200: { description: "2FA is off; the cookies are cleared.", schema: RecoveryConfirmed },
  },
  errors: {
    400: INVALID_REQUEST,
    401: { description: "`invalid_mfa_code`: unknown, used or expired token.", codes: ["invalid_mfa_code"] },
    403: CROSS_SITE,
  },
});
