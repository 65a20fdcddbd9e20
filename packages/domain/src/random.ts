/**
 * Random identifiers drawn from a cryptographic source.
 */
import { randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `length` uniformly random base62 characters (`[0-9A-Za-z]`, about 5.95 bits each), e.g. API key bodies and Pix
 * txids.
 */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** `length` base62 characters of `bytes` read as one big-endian number (enough bytes give a uniform result). */
export function base62Of(bytes: Uint8Array, length: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  let out = "";
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}
