/**
 * Text that PostgreSQL can store. A `text` or `jsonb` value is UTF-8 without NUL: a string holding U+0000, or a lone
 * UTF-16 surrogate (which has no UTF-8 form), makes the statement fail, and with Prisma's batching it can fail other
 * requests' statements in the same batch. The API refuses such text at the door; text the service itself
 * extracts from stored bytes (an inbound payer's name, a user agent) is made storable with {@link toStorableText}.
 */

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern is for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** Whether PostgreSQL can store `value` as text (no NUL, no lone surrogate). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** `value` with every NUL and lone surrogate replaced by U+FFFD, as a UTF-8 decoder treats bytes it cannot read. */
export function toStorableText(value: string): string {
  return value.replace(UNSTORABLE_ALL, "\ufffd");
}

/**
 * The path of the first string in `value` (object keys included, depth first) that PostgreSQL cannot store, in the
 * joi form used as an error's `param` (`customer.name`, `metadata.0`); `""` when `value` itself is the string. A key at
 * fault is named with its unreadable characters replaced by U+FFFD. The walk is iterative: a 100 kB body can nest
 * arrays 50,000 deep, more than the call stack holds.
 * @returns the path, or null when every string is storable
 */
export function findUnstorableText(value: unknown): string | null {
  // Paths are kept as parent links and spelled out only for the answer, so a deep body costs linear time.
  type Step = { key: string; parent: Step | null } | null;
  const spell = (step: Step, last?: string): string => {
    const keys = last === undefined ? [] : [last];
    for (let at = step; at !== null; at = at.parent) keys.push(at.key);
    return keys.reverse().join(".");
  };
  const pending: Array<{ value: unknown; at: Step }> = [{ value, at: null }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value === "string") {
      if (!isStorableText(next.value)) return spell(next.at);
      continue;
    }
    if (typeof next.value !== "object" || next.value === null) continue;
    const entries = Array.isArray(next.value)
      ? next.value.map((item, i) => [String(i), item] as const)
      : Object.entries(next.value);
    for (const [key] of entries) {
      if (!isStorableText(key)) return spell(next.at, toStorableText(key));
    }
    // Reversed so that the first entry is searched first.
    for (const [key, item] of entries.reverse()) pending.push({ value: item, at: { key, parent: next.at } });
  }
  return null;
}
