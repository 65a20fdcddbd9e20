/**
 * JSON logging with winston for every process, with a redaction pass so that credentials, tokens, passwords,
 * secrets and documents never reach a log line (STYLE "Habits").
 */
import winston from "winston";

/** Replacement written in place of a redacted value. */
export const REDACTED = "[redacted]";

/**
 * Key names whose values are never logged, matched case-insensitively against every nested key.
 * A key matches when, with `-` and `_` removed, it contains one of these.
 */
const REDACTED_KEY_PARTS = [
  "authorization",
  "cookie",
  "password",
  "token",
  "secret",
  "apikey",
  "key_hash",
  "keyhash",
  "code",
  "document",
  "signature",
  "totp",
  "backup",
  "ciphertext",
  "rawbody",
];

const ALLOWED_KEYS = new Set(["status_code", "error_code", "code_path"]);

/** The verdicts of {@link isRedactedKey} so far, by key; bounded, since nested keys may come from anywhere. */
const redactedKeyVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

function isRedactedKey(key: string): boolean {
  // Every log line passes its keys through here, mostly the same few (a request line's): a remembered verdict saves
  // matching every pattern again on the busiest routes.
  const known = redactedKeyVerdicts.get(key);
  if (known !== undefined) return known;
  const lower = key.toLowerCase();
  const folded = lower.replace(/[-_]/g, "");
  const verdict =
    !ALLOWED_KEYS.has(lower) && REDACTED_KEY_PARTS.some((part) => folded.includes(part.replace(/_/g, "")));
  if (redactedKeyVerdicts.size < MAX_REMEMBERED_KEYS) redactedKeyVerdicts.set(key, verdict);
  return verdict;
}

/**
 * Returns a deep copy of `value` with the values of sensitive keys replaced by {@link REDACTED}, and any string that
 * looks like one of our secrets (`sk_live_…`, `sk_test_…`, `whsec_…`) masked wherever it appears.
 * @param value - any JSON-like value; cycles are cut
 */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return value.replace(/\b(sk_(?:live|test)_|whsec_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (value instanceof Error) return { name: value.name, message: redact(value.message, seen), stack: value.stack };
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isRedactedKey(key) ? REDACTED : redact(inner, seen);
  }
  return out;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    info[key] = isRedactedKey(key) ? REDACTED : redact(info[key]);
  }
  if (typeof info.message === "string") info.message = redact(info.message) as string;
  return info;
});

/** A winston logger; `child({request_id})` adds fields to every line. */
export type Logger = winston.Logger;

/**
 * Creates the process logger: one JSON object per line on stdout, ISO timestamps, sensitive values redacted.
 * @param options.level - winston level (`LOG_LEVEL`)
 * @param options.service - `api`, `worker` or `ops`, written on every line
 * @param options.silent - no output (tests that do not read logs)
 */
export function createLogger(options: { level: string; service: string; silent?: boolean }): Logger {
  return winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    defaultMeta: { service: options.service },
    format: winston.format.combine(redactFormat(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}

/**
 * Installs the process-wide handlers of errors that no caller awaited. An unhandled promise
 * rejection is logged at `error` and the process goes on: it comes from work whose caller already moved on (a
 * fire-and-forget task, a library's background promise), and ending the process for it would cut every request or
 * job in flight. An uncaught exception leaves the process in an unknown state: it is logged and the process exits
 * with status 1, for its supervisor to restart it.
 * @param service - `api` or `worker`, named in the log line
 */
export function handleStrayErrors(logger: Logger, service: string): void {
  process.on("unhandledRejection", (reason) => {
    logger.error("unhandled promise rejection", { service, err: reason });
  });
  process.on("uncaughtException", (err) => {
    logger.error("uncaught exception; exiting", { service, err });
    // Let winston write the line before the process ends.
    setTimeout(() => process.exit(1), 100).unref();
  });
}
