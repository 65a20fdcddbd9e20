import { Type, type Static } from "@sinclair/typebox";
import type { Session as SessionRow, User as UserRow } from "@lm/db";
import { Nullable, StringEnum, Timestamp, wireObject } from "./schema";

/** SPEC "User". */
export const User = wireObject(
  "User",
  Type.Object(
    {
      id: Type.String({ format: "uuid" }),
      email: Type.String({ format: "email" }),
      name: Type.String(),
      emailVerified: Type.Boolean(),
      role: StringEnum(["owner", "ops"], {
        description: "`owner`: a seller's user; `ops`: an operator (`seller_id` null).",
      }),
      seller_id: Nullable(Type.String(), { description: "`sel_…`; null for operators." }),
    },
    { description: 'SPEC "User".' },
  ),
);
/** User as sent. */
export type User = Static<typeof User>;

/** UserReply */
export const UserReply = wireObject(
  "UserReply",
  Type.Object({
    user: User,
  }),
);
/** UserReply as sent. */
export type UserReply = Static<typeof UserReply>;

/** Sign-in with 2FA on: no session yet; the `lm.two_factor` challenge cookie is set (10 min, 5 tries). */
export const TwoFactorRedirect = wireObject(
  "TwoFactorRedirect",
  Type.Object(
    {
      twoFactorRedirect: Type.Literal(true),
    },
    {
      description:
        "Sign-in with 2FA on: no session yet; the `lm.two_factor` challenge cookie is set (10 min, 5 tries).",
    },
  ),
);
/** TwoFactorRedirect as sent. */
export type TwoFactorRedirect = Static<typeof TwoFactorRedirect>;

/** SPEC "Session". The token is never exposed. */
export const Session = wireObject(
  "Session",
  Type.Object(
    {
      id: Type.String({ format: "uuid" }),
      ip_address: Nullable(Type.String()),
      user_agent: Nullable(Type.String()),
      created_at: Timestamp,
      expires_at: Timestamp,
      last_seen_at: Timestamp,
      current: Type.Boolean({ description: "Whether this is the session of the request." }),
    },
    { description: 'SPEC "Session". The token is never exposed.' },
  ),
);
/** Session as sent. */
export type Session = Static<typeof Session>;

/** SPEC "Invite check result". */
export const InviteCheck = wireObject(
  "InviteCheck",
  Type.Object(
    {
      email: Type.String({ format: "email" }),
      expires_at: Timestamp,
    },
    { description: 'SPEC "Invite check result".' },
  ),
);
/** InviteCheck as sent. */
export type InviteCheck = Static<typeof InviteCheck>;

/** TwoFactorEnrolment */
export const TwoFactorEnrolment = wireObject(
  "TwoFactorEnrolment",
  Type.Object({
    method: Type.Literal("totp"),
    totpURI: Type.String({
      description: "`otpauth://totp/<issuer>:<email>?secret=…&issuer=…` (RFC 6238, SHA-1, 6 digits, 30 s).",
    }),
    backupCodes: Type.Array(Type.String({ minLength: 10, maxLength: 10 }), {
      description: "Shown once; each works once.",
      minItems: 10,
      maxItems: 10,
    }),
  }),
);
/** TwoFactorEnrolment as sent. */
export type TwoFactorEnrolment = Static<typeof TwoFactorEnrolment>;

/** BackupCodes */
export const BackupCodes = wireObject(
  "BackupCodes",
  Type.Object({
    backupCodes: Type.Array(Type.String({ minLength: 10, maxLength: 10 }), { minItems: 10, maxItems: 10 }),
  }),
);
/** BackupCodes as sent. */
export type BackupCodes = Static<typeof BackupCodes>;

/** StepUpResult */
export const StepUpResult = wireObject(
  "StepUpResult",
  Type.Object({
    mfa_verified_until: Type.String({
      description: "End of this session's step-up window (now + `STEP_UP_WINDOW_SECONDS`).",
      format: "date-time",
    }),
  }),
);
/** StepUpResult as sent. */
export type StepUpResult = Static<typeof StepUpResult>;

/** SPEC "Step-up preferences": whether the seller's `webhook` and `account` actions need a step-up. Both default to true. */
export const StepUpPrefs = wireObject(
  "StepUpPrefs",
  Type.Object(
    {
      webhook: Type.Boolean(),
      account: Type.Boolean(),
    },
    {
      description:
        'SPEC "Step-up preferences": whether the seller\'s `webhook` and `account` actions need a step-up. Both default to true.',
    },
  ),
);
/** StepUpPrefs as sent. */
export type StepUpPrefs = Static<typeof StepUpPrefs>;

/** RecoveryConfirmed */
export const RecoveryConfirmed = wireObject(
  "RecoveryConfirmed",
  Type.Object({
    withdrawals_locked_until: Type.String({ description: "Now + 24 h.", format: "date-time" }),
  }),
);
/** RecoveryConfirmed as sent. */
export type RecoveryConfirmed = Static<typeof RecoveryConfirmed>;

/** The reply of a sign-in: the user, or the second factor still to give. */
export const SignInResult = wireObject("SignInResult", Type.Union([UserReply, TwoFactorRedirect]));
/** SignInResult as sent. */
export type SignInResult = Static<typeof SignInResult>;

/** Every live session of the user (not paged). */
export const SessionList = wireObject("SessionList", Type.Object({ data: Type.Array(Session) }));
/** SessionList as sent. */
export type SessionList = Static<typeof SessionList>;

/** Serializes `user` (SPEC "Auth and account"): never the password hash or the TOTP secret. */
export function serializeUser(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.email_verified_at !== null,
    role: user.role,
    seller_id: user.seller_id,
  };
}

/** Serializes `session`, marking it `current` when it is the request's (`currentId`). */
export function serializeSession(session: SessionRow, currentId: string): Session {
  return {
    id: session.id,
    ip_address: session.ip_address,
    user_agent: session.user_agent,
    created_at: session.created_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
    last_seen_at: session.last_seen_at.toISOString(),
    current: session.id === currentId,
  };
}
