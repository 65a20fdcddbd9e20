/**
 * The split of a QR code's text into numeric, alphanumeric and byte segments that takes the fewest bits (ISO/IEC
 * 18004 §7.4; the mixing the standard's Annex J describes). qrcode finds it by building a graph of every candidate
 * split and running Dijkstra over it, which took half of the QR code's time on every charge creation; a
 * BR Code is one pass of dynamic programming over three modes instead (the method of Nayuki's "QR Code generator"
 * `makeSegmentsOptimally`), whose segments qrcode then encodes as given.
 */

/** A segment as qrcode's `create` takes it: a byte segment's data is the UTF-8 bytes. */
export type QrSegment = { mode: "numeric" | "alphanumeric"; data: string } | { mode: "byte"; data: Buffer };

const MODES = ["byte", "alphanumeric", "numeric"] as const;
type ModeIndex = 0 | 1 | 2;
const BYTE = 0;
const ALPHANUMERIC = 1;
const NUMERIC = 2;

/** The 45 characters of the alphanumeric mode (ISO/IEC 18004 Table 5). */
const ALPHANUMERIC_CHARSET = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:");

/** Bits of a segment's character count indicator, by mode, for versions 1-9, 10-26 and 27-40 (Table 3). */
const COUNT_BITS: Record<ModeIndex, [number, number, number]> = {
  [BYTE]: [8, 16, 16],
  [ALPHANUMERIC]: [9, 11, 13],
  [NUMERIC]: [10, 12, 14],
};

/**
 * Splits `text` into the segments that encode it in the fewest bits at `version` (1 to 40: the character count
 * indicators grow at versions 10 and 27). Costs are counted in sixths of a bit (a digit is 10/3 bits, an
 * alphanumeric character 11/2), each segment rounded up to whole bits, as Nayuki's algorithm does.
 * @returns the segments in order; empty for an empty text
 */
export function optimalQrSegments(text: string, version: number): QrSegment[] {
  const chars = Array.from(text);
  const n = chars.length;
  if (n === 0) return [];
  const band = version <= 9 ? 0 : version <= 26 ? 1 : 2;
  const headCost = [0, 1, 2].map((mode) => (4 + COUNT_BITS[mode as ModeIndex][band]) * 6);
  // cameFrom[3i + m]: the mode of character i in the cheapest encoding of chars[0..i] whose last segment is mode m
  // (open, possibly still empty); -1 where m cannot hold character i. Plain arrays and locals: this runs for every
  // character of every charge's code.
  const cameFrom = new Int8Array(3 * n).fill(-1);
  const cost = Float64Array.from(headCost);
  const ended = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const char = chars[i]!;
    const point = char.codePointAt(0)!;
    const bytes = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    const from = 3 * i;
    cost[BYTE] = cost[BYTE]! + bytes * 8 * 6;
    cameFrom[from + BYTE] = BYTE;
    if (ALPHANUMERIC_CHARSET.has(char)) {
      cost[ALPHANUMERIC] = cost[ALPHANUMERIC]! + 33;
      cameFrom[from + ALPHANUMERIC] = ALPHANUMERIC;
    } else cost[ALPHANUMERIC] = Infinity;
    if (point >= 0x30 && point <= 0x39) {
      cost[NUMERIC] = cost[NUMERIC]! + 20;
      cameFrom[from + NUMERIC] = NUMERIC;
    } else cost[NUMERIC] = Infinity;
    // Ending a segment after this character and opening one of mode `to`.
    ended.set(cost);
    for (let to = 0; to < 3; to++) {
      for (let end = 0; end < 3; end++) {
        if (cameFrom[from + end] === -1) continue;
        const switched = Math.ceil(ended[end]! / 6) * 6 + headCost[to]!;
        if (switched < cost[to]!) {
          cost[to] = switched;
          cameFrom[from + to] = end;
        }
      }
    }
  }
  let mode = cost.indexOf(Math.min(...cost));
  const modeOf = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    mode = cameFrom[3 * i + mode]!;
    modeOf[i] = mode;
  }
  const segments: QrSegment[] = [];
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && modeOf[end] === modeOf[start]) end++;
    const data = chars.slice(start, end).join("");
    const kind = MODES[modeOf[start]!]!;
    segments.push(kind === "byte" ? { mode: kind, data: Buffer.from(data) } : { mode: kind, data });
    start = end;
  }
  return segments;
}
