/**
 * The split of a QR code's text into numeric, alphanumeric and byte segments that takes the fewest bits (ISO/IEC
 * 18004 §7.4; the mixing the standard's Annex J describes). qrcode finds it by building a graph of every candidate
 * split and running Dijkstra over it, which took half of the QR code's time on every charge creation (issue 14); a
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
  if (chars.length === 0) return [];
  const band = version <= 9 ? 0 : version <= 26 ? 1 : 2;
  const headCost = MODES.map((_, mode) => (4 + COUNT_BITS[mode as ModeIndex][band]) * 6);
  // cameFrom[i][m]: the mode of character i in the cheapest encoding of chars[0..i] whose last segment is mode m
  // (open, possibly still empty); -1 where m cannot hold character i.
  const cameFrom: Int8Array[] = [];
  let previous = headCost.slice();
  for (const char of chars) {
    const current = [Infinity, Infinity, Infinity];
    const from = new Int8Array([-1, -1, -1]);
    current[BYTE] = previous[BYTE]! + Buffer.byteLength(char) * 8 * 6;
    from[BYTE] = BYTE;
    if (ALPHANUMERIC_CHARSET.has(char)) {
      current[ALPHANUMERIC] = previous[ALPHANUMERIC]! + 33;
      from[ALPHANUMERIC] = ALPHANUMERIC;
    }
    if (char >= "0" && char <= "9") {
      current[NUMERIC] = previous[NUMERIC]! + 20;
      from[NUMERIC] = NUMERIC;
    }
    // Ending a segment after this character and opening one of mode `to`.
    const ended = current.slice();
    for (let to = 0; to < 3; to++) {
      for (let end = 0; end < 3; end++) {
        if (from[end] === -1) continue;
        const cost = Math.ceil(ended[end]! / 6) * 6 + headCost[to]!;
        if (cost < current[to]!) {
          current[to] = cost;
          from[to] = end;
        }
      }
    }
    cameFrom.push(from);
    previous = current;
  }
  let mode = previous.indexOf(Math.min(...previous));
  const modeOf: number[] = new Array<number>(chars.length);
  for (let i = chars.length - 1; i >= 0; i--) {
    mode = cameFrom[i]![mode]!;
    modeOf[i] = mode;
  }
  const runs: { mode: (typeof MODES)[number]; text: string }[] = [];
  for (let i = 0; i < chars.length; i++) {
    const last = runs[runs.length - 1];
    if (last !== undefined && modeOf[i - 1] === modeOf[i]) last.text += chars[i];
    else runs.push({ mode: MODES[modeOf[i]!]!, text: chars[i]! });
  }
  return runs.map(({ mode, text }) => (mode === "byte" ? { mode, data: Buffer.from(text) } : { mode, data: text }));
}
