/**
 * Request schemas of the two-factor routes (SPEC "Auth and account"). A code must be a string here; whether it is
 * six digits (or a backup code) is the use case's check, answered 401 `invalid_mfa_code` like a wrong code.
 */
import Joi from "joi";

const password = Joi.string().min(1).max(1024);
const code = Joi.string().max(64);

/** `POST /v1/me/auth/two-factor/enable`; only TOTP exists, so `method` may say `otp` but the answer is TOTP. */
export const enableSchema = Joi.object<{ password: string; method?: "totp" | "otp" }>({
  password: password.required(),
  method: Joi.string().valid("totp", "otp"),
});

/** `verify-totp` and `verify-backup-code`. */
export const verifyCodeSchema = Joi.object<{ code: string; trustDevice: boolean }>({
  code: code.required(),
  trustDevice: Joi.boolean().default(false),
});

/** `disable` and `generate-backup-codes`. */
export const passwordSchema = Joi.object<{ password: string }>({ password: password.required() });

/** `POST /v1/me/auth/step-up`. */
export const stepUpSchema = Joi.object<{ code: string; password: string }>({
  code: code.required(),
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
    .max(2048),
});

/** `POST /v1/me/auth/two-factor/recovery/confirm`. */
export const recoveryConfirmSchema = Joi.object<{ token: string }>({ token: Joi.string().min(1).max(512).required() });
