/**
 * Public identifiers: a type prefix and a ULID body, so ids sort by creation time (DESIGN §2).
 */
import { randomFillSync } from "node:crypto";
import { encodeTime, factory } from "ulid";

/** Prefix of each resource kind's public id (DESIGN §2). */
export const ID_PREFIX = {
  transaction: "txn",
  transactionBatch: "tbt",
  withdrawal: "wd",
  seller: "sel",
  store: "sto",
  apiKey: "key",
  webhookEndpoint: "we",
  delivery: "whd",
  event: "evt",
  inboxItem: "inb",
  acquirer: "acq",
  payoutKey: "pk",
  notification: "ntf",
  refund: "rfd",
  balanceTransaction: "btx",
  dispute: "dsp",
  request: "req",
  webhookRecovery: "whr",
  qrCode: "qr",
  recurrence: "rec",
  testClock: "clk",
} as const;

/** A resource kind that has a prefixed public id. */
export type IdKind = keyof typeof ID_PREFIX;

const ULID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Random words drawn from the cryptographic source in batches. */
const randomWords = new Uint32Array(1024);
let nextWord = randomWords.length;

/**
 * ulid's PRNG: a uniform number in [0, 1) from the cryptographic source. ulid's own asks `crypto.randomBytes` for one
 * byte per character (16 calls per id, a few per cent of a charge creation's CPU); this draws 4 KB at once.
 */
function cryptoUnit(): number {
  if (nextWord === randomWords.length) {
    randomFillSync(randomWords);
    nextWord = 0;
  }
  return (randomWords[nextWord++] ?? 0) / 2 ** 32;
}

const ulid = factory(cryptoUnit);

/**
 * Makes a new public id, e.g. `newId("transaction")` → `txn_01JD3Z…` (prefix, underscore, 26-character ULID).
 * @param kind - resource kind
 * @param time - creation time in ms since the epoch (defaults to now); ids made later sort after
 */
export function newId(kind: IdKind, time?: number): string {
  return `${ID_PREFIX[kind]}_${ulid(time)}`;
}

/**
 * The smallest id of `kind` that can be made at `time` (ms since the epoch): every id made earlier sorts below it, every
 * id made then or later at or above it. A watermark over ids, e.g. the ledger's checkpoints (DESIGN §10 "Sweeps").
 */
export function idFloor(kind: IdKind, time: number): string {
  return `${ID_PREFIX[kind]}_${encodeTime(time, 10)}${"0".repeat(16)}`;
}

/**
 * Whether `value` is a well-formed id of `kind`. Routes use it so that an id of another kind answers 404 without
 * a database look-up.
 */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIX[kind]}_`;
  return value.startsWith(prefix) && ULID_BODY.test(value.slice(prefix.length));
}
