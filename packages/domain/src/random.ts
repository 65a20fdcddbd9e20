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
