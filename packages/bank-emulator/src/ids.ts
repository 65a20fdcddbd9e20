/**
 * Identifiers the emulated bank hands out, in the formats of the Pix rules: end-to-end ids (`E`) and return ids
 * (`D`) are 32 characters, `<letter><ISPB, 8 digits><yyyyMMddHHmm, UTC><11 alphanumerics>` (Manual de Padrões para
 * Iniciação do Pix; the standard's `EndToEndId` and `rtrId` patterns).
 */
import { randomBytes } from "node:crypto";
import { ulid } from "ulid";

/** ISPB written in the ids of what the emulated bank itself sends (returns, payouts). */
export const EMULATOR_ISPB = "99990000";
/** ISPB of the imaginary payer's bank, written in the end-to-end ids of received payments. */
export const PAYER_BANK_ISPB = "99990001";

/** `yyyyMMddHHmm` in UTC. */
function minuteStamp(at: Date): string {
  return at.toISOString().slice(0, 16).replace(/[-T:]/g, "");
}

/** 11 characters of a new ULID's random part (Crockford base32: letters and digits only). */
function randomTail(): string {
  return ulid().slice(-11);
}

/** A Pix end-to-end id issued by the bank of `ispb` at `at`. */
export function newEndToEndId(ispb: string, at: Date): string {
  return `E${ispb}${minuteStamp(at)}${randomTail()}`;
}

/** The return id (`rtrId`) of a devolução the emulated bank sends at `at`. */
export function newReturnId(at: Date): string {
  return `D${EMULATOR_ISPB}${minuteStamp(at)}${randomTail()}`;
}

/** The id of an unrequested devolução (MED): `MED` and a ULID, within the standard's `^[a-zA-Z0-9]{1,35}$`. */
export function newMedId(): string {
  return `MED${ulid()}`;
}

/**
 * The location of a charge's dynamic BR Code (URL without scheme, at most 77 characters). Its host sits under
 * `.localhost` (RFC 6761), so an emulated code can never be paid by a real app; the emulator does not serve it.
 */
export function newLocation(): string {
  return `pix.emulator.localhost/qr/v2/${ulid().toLowerCase()}`;
}

/** An opaque bearer token: 32 random bytes, base64url. */
export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A client secret: 24 random bytes, hex. */
export function newClientSecret(): string {
  return randomBytes(24).toString("hex");
}
