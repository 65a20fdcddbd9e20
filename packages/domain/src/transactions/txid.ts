/**
 * The central bank's transaction id (`txid`) of a Pix charge: 26 to 35 characters of `[a-zA-Z0-9]` (Bacen Pix API,
 * `cob` resource). It travels in the BR Code location and in the payment notification, which is matched by it.
 */
import { randomBase62 } from "../random";

/** Length of the txids we issue: the central bank's minimum, about 155 random bits, short enough for the location. */
export const TXID_LENGTH = 26;

/** Shape of any valid txid (Bacen: `^[a-zA-Z0-9]{26,35}$`). */
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;

/** A new random txid; uniqueness is enforced by the database (`transactions.txid` is unique). */
export function generateTxid(): string {
  return randomBase62(TXID_LENGTH);
}
