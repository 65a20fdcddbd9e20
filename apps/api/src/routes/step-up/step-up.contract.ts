/**
 * Contracts of the step-up routes.
 */
import { defineRoute, INVALID_REQUEST, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import { stepUpPrefsSchema, stepUpSchema } from "../two-factor/two-factor.contract";
import { StepUpPrefs, StepUpResult } from "@lm/wire";

/** `stepUp`. */
export const stepUp = defineRoute({
  method: "post",
  path: "/v1/me/auth/step-up",
  operationId: "stepUp",
  tag: "Two-factor and step-up",
  summary: "Confirm this session for sensitive actions",
  security: PANEL_SESSION,
  body: stepUpSchema,
  replies: {
    200: { description: "This session is confirmed until `mfa_verified_until`.", schema: StepUpResult },
  },
  errors: {
    400: INVALID_REQUEST,
    401: {
      description:
        "`authentication_required`: no live `lm.session` cookie. `invalid_mfa_code`: wrong password, or a wrong, malformed or already used code.",
      codes: ["authentication_required", "invalid_mfa_code"],
    },
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. `mfa_required`: 2FA is not on for this user.",
      codes: ["permission_denied", "mfa_required"],
    },
    429: {
      description:
        "`rate_limited`: over 5 attempts per minute for this user, or over 5 failed second factors per minute for the account, counted across every sign-in challenge, enrolment, step-up and disable.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `getStepUpPrefs`. */
export const getStepUpPrefs = defineRoute({
  method: "get",
  path: "/v1/me/security/step-up-prefs",
  operationId: "getStepUpPrefs",
  tag: "Account and sessions",
  summary: "The seller's step-up toggles",
  security: PANEL_SESSION,
  replies: {
    200: { description: "The toggles.", schema: StepUpPrefs },
  },
  errors: {
    401: NO_SESSION,
    403: { description: "`permission_denied`: operators have no seller and no toggles.", codes: ["permission_denied"] },
  },
});

/** `setStepUpPrefs`. */
export const setStepUpPrefs = defineRoute({
  method: "put",
  path: "/v1/me/security/step-up-prefs",
  operationId: "setStepUpPrefs",
  tag: "Account and sessions",
  summary: "Change the seller's step-up toggles",
  description: "Always needs a live step-up.",
  security: PANEL_SESSION,
  body: stepUpPrefsSchema,
  replies: {
    200: { description: "The toggles after the change.", schema: StepUpPrefs },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators (no seller). `mfa_required`: no live step-up on this session (`POST /v1/me/auth/step-up` first).",
      codes: ["permission_denied", "mfa_required"],
    },
  },
});
