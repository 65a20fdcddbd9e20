/**
 * TOTP as DESIGN §3 fixes it: RFC 6238 with SHA-1, 6 digits, 30-second steps, one step of drift either way, secrets
 * of 20 random bytes. A code must be exactly six ASCII digits before speakeasy sees it: the library would accept
 * `" 123456"`, `"+23456"` or the number 123456, which are not codes.
 */
import { randomBytes } from "node:crypto";
import speakeasy from "speakeasy";

/** The only shape a TOTP code may have. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** Seconds per step (RFC 6238 X). */
export const TOTP_STEP_SECONDS = 30;
/** Steps of clock drift accepted either way. */
export const TOTP_WINDOW_STEPS = 1;
/** Issuer shown by authenticator apps. */
export const TOTP_ISSUER = "LM Pix";

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length), hex-encoded. */
export function generateTotpSecret(): string {
  return randomBytes(20).toString("hex");
}

/**
 * The `otpauth://` URI an authenticator app scans: `otpauth://totp/<issuer>:<email>?secret=<base32>&issuer=<issuer>`
 * plus the algorithm, digits and period.
 */
export function totpUri(secretHex: string, email: string): string {
  return speakeasy.otpauthURL({
    secret: secretHex,
    encoding: "hex",
    label: `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(email)}`,
    issuer: TOTP_ISSUER,
    algorithm: "sha1",
    digits: 6,
    period: TOTP_STEP_SECONDS,
  });
}

/** The time step (RFC 6238 T) that contains `at`. */
export function totpStepAt(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/**
 * The time step whose code `code` is, within one step of `now`.
 * @param code - anything a client sent; only a string of exactly six digits can match
 * @returns the matching step (so that the caller can refuse a replay), or null
 */
export function matchTotpStep(secretHex: string, code: unknown, now: Date): number | null {
  if (typeof code !== "string" || !TOTP_CODE_PATTERN.test(code)) return null;
  const counter = totpStepAt(now);
  const match = speakeasy.totp.verifyDelta({
    secret: secretHex,
    encoding: "hex",
    token: code,
    algorithm: "sha1",
    digits: 6,
    step: TOTP_STEP_SECONDS,
    counter,
    window: TOTP_WINDOW_STEPS,
  });
  return match ? counter + match.delta : null;
}
