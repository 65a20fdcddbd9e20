/**
 * Process configuration, read from the environment and validated with joi (DESIGN §6).
 *
 * `loadConfig(env)` is pure: it reads only the object it is given and either returns a typed {@link Config} or throws
 * one {@link ConfigError} that lists every problem at once, so an operator fixes them in one go.
 */
import Joi from "joi";

/** Default retry delays in seconds between attempts 1→2, …, 5→6 (SPEC "Retry schedule"). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [60, 300, 1800, 7200, 43200] as const;

/** A fixed development key, refused in production (where `ENCRYPTION_KEY` is required). */
const DEVELOPMENT_ENCRYPTION_KEY = Buffer.alloc(32, "lm-pix-development-only-key!").toString("base64");

/** Validated, typed configuration of the API, worker and ops processes. */
export interface Config {
  /** PostgreSQL connection string of the service's queries (a connection pooler's address, if there is one). */
  databaseUrl: string;
  /**
   * How `DATABASE_URL` pools server connections (DESIGN §10 "PostgreSQL through a pooler"): `session` (direct, or a
   * pooler in session mode: a connection is the process's until it closes, so statements are prepared once per
   * connection) or `transaction` (PgBouncer in transaction mode: each transaction may run on another server
   * connection, so every statement runs unnamed).
   */
  databasePooling: "session" | "transaction";
  /**
   * PostgreSQL connection string that reaches the server itself, never a transaction-mode pooler
   * (`DATABASE_DIRECT_URL`, default {@link databaseUrl}): for migrations and the change feed's `LISTEN`, which need a
   * session of their own.
   */
  databaseDirectUrl: string;
  /** Redis connection string (BullMQ, rate limits). */
  redisUrl: string;
  /**
   * Seed nodes of a Redis Cluster (`REDIS_CLUSTER_NODES`, `redis://` or `rediss://` URLs); when set, every process
   * connects to the cluster instead of {@link redisUrl}, and {@link queuePrefix} carries no braces: each queue has a
   * hash tag of its own (DESIGN §10 "Redis").
   */
  redisClusterNodes: string[] | undefined;
  /** HTTP port of the API; 0 picks a free one. */
  port: number;
  nodeEnv: "development" | "test" | "production";
  logLevel: "error" | "warn" | "info" | "http" | "verbose" | "debug" | "silly";
  /** 32-byte AES-256-GCM key for secrets at rest (DESIGN §3). */
  encryptionKey: Buffer;
  /**
   * Origin used to build links in mail and the sandbox BR Code host, never taken from a request; outside production
   * `http://localhost:<PORT>` when unset.
   */
  publicBaseUrl: string;
  /** Origins allowed to make cookie-authenticated state changes (CSRF, DESIGN §3); unset, as `publicBaseUrl`'s. */
  panelOrigins: string[];
  /** Whether session cookies carry `Secure`. */
  cookieSecure: boolean;
  /** Terms version that `POST /v1/me/terms/accept` must name. */
  termsVersion: string;
  /** Life of a step-up window, seconds. */
  stepUpWindowSeconds: number;
  /**
   * Days before its due date the recurrence engine sends a fixed-amount cycle's charge (`RECURRENCE_LEAD_DAYS`, 2 to 10,
   * the window Pix Automático allows; default 5; DESIGN §14).
   */
  recurrenceLeadDays: number;
  /** Admits `http`, any port, `localhost` and loopback as webhook destinations (development and tests only). */
  webhookAllowLocalDestinations: boolean;
  /**
   * Jobs each worker process runs at once per queue; for `webhook-delivery`, in total over its
   * {@link deliveryQueueShards} shards.
   */
  workerConcurrency: number;
  /**
   * Number of queues the `webhook-delivery` and `inbox-processing` queues are each split into
   * (`DELIVERY_QUEUE_SHARDS`, 1 to 64, default 8; DESIGN §10 "Redis"): each has its own hash tag, so a Redis Cluster
   * spreads them over its masters. Every process must use the same number.
   */
  deliveryQueueShards: number;
  /** SMTP transport URL; when absent, mail is written as JSON files under {@link mailOutboxDir}. */
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  /** Delays in seconds before attempts 2..6 (five numbers). */
  retryScheduleSeconds: number[];
  /** Longest wait for one call to a bank acquirer, ms (DESIGN §9 "Transport": 5 s; tests shorten it). */
  acquirerTimeoutMs: number;
  /** Prefix of every BullMQ and rate-limit key in Redis (never a hash tag); tests use one per file. */
  queuePrefix: string;
  /** bcrypt cost of password hashes (DESIGN §3: 12); tests may lower it, never below 12 elsewhere. */
  bcryptCost: number;
  /**
   * Express `trust proxy`: `false` (the client's socket address is the IP, X-Forwarded-For is ignored), a number of
   * proxy hops, or the addresses/subnets of the proxies in front of the API.
   */
  trustProxy: false | number | string[];
  /** `From` of every mail the service sends. */
  mailFrom: string;
  /**
   * Port of the process's own Prometheus listener (`GET /metrics`, no authentication, for the private network);
   * undefined: no listener. 0 picks a free port (tests).
   */
  metricsPort: number | undefined;
  /**
   * When set, the API also serves `GET /metrics` on its public port to callers presenting `Authorization: Bearer
   * <token>`; when unset, that route does not exist there.
   */
  metricsToken: string | undefined;
  /**
   * Days that events, webhook deliveries and inbox items are kept, counted from each row's creation (DESIGN §10
   * "Retention": default 90, at least 30).
   */
  retentionDays: number;
}

/** Thrown by {@link loadConfig}; `problems` has one line per invalid or missing variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** A host name as the BR Code location takes it: dot-separated labels of letters, digits and inner hyphens. */
const BR_CODE_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Why charges could not get a BR Code on `host` (PUBLIC_BASE_URL's), or `null`. A charge's location is
 * `sandbox.<host>/qr/<26-character txid>`, at most 77 characters (Manual do BR Code), which leaves 39 for the host.
 * In production the host must be a public DNS name: dotted, not `localhost`.
 * Kept beside `sandboxPixLocation` (packages/domain/src/br-code/br-code.ts), which builds the location.
 */
function brCodeHostProblem(host: string, production: boolean): string | null {
  if (!BR_CODE_HOST.test(host)) return "host must be a DNS name (letters, digits, hyphens, dots) to build BR Codes on";
  const dotted = host.includes(".");
  if (host.length > 39) return "host is too long for a BR Code location (39 characters at most)";
  if (production && (!dotted || host === "localhost" || host.endsWith(".localhost"))) {
    return "host must be a public DNS name in production (banks post their notifications to it)";
  }
  return null;
}

const booleanString = Joi.boolean().truthy("true", "1").falsy("false", "0");

/** The non-empty, trimmed items of a comma-separated value (`PANEL_ORIGINS`, `REDIS_CLUSTER_NODES`). */
function splitList(value: string): string[] {
  return value
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
}

/**
 * Whether a panel origin is fit for production: `https` and not this machine (`localhost`, `*.localhost`, a loopback
 * or unspecified address), since a cookie session sent over plain http, or a CSRF allowance for a local page, is an
 * opening for anyone on the path or the host.
 */
function isProductionOrigin(origin: string): boolean {
  const url = new URL(origin);
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  const local =
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "0.0.0.0" ||
    host === "::1" ||
    host === "::" ||
    /^::ffff:127\./.test(host) ||
    /^::ffff:7f/.test(host);
  return url.protocol === "https:" && !local;
}

const schema = Joi.object({
  NODE_ENV: Joi.string().valid("development", "test", "production").default("development"),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ["postgres", "postgresql"] })
    .default("postgresql://postgres@127.0.0.1:5432/lm_pix")
    .when("NODE_ENV", { is: "production", then: Joi.required() }),
  DATABASE_POOLING: Joi.string().valid("session", "transaction").default("session"),
  DATABASE_DIRECT_URL: Joi.string()
    .uri({ scheme: ["postgres", "postgresql"] })
    .default((env: { DATABASE_URL: string }) => env.DATABASE_URL),
  REDIS_URL: Joi.string()
    .uri({ scheme: ["redis", "rediss"] })
    .default("redis://127.0.0.1:6379")
    .when("NODE_ENV", {
      is: "production",
      then: Joi.when("REDIS_CLUSTER_NODES", { not: Joi.exist(), then: Joi.required() }),
    }),
  REDIS_CLUSTER_NODES: Joi.string()
    .custom((value: string) => {
      const nodes = splitList(value);
      const scheme = (node: string) => (URL.canParse(node) ? new URL(node).protocol : "");
      const ok =
        nodes.length > 0 &&
        nodes.every((node) => /^rediss?:$/.test(scheme(node)) && new URL(node).hostname !== "") &&
        nodes.every((node) => scheme(node) === scheme(nodes[0] as string));
      if (!ok) throw new Error("invalid");
      return value;
    })
    .messages({
      "any.custom":
        '"REDIS_CLUSTER_NODES" must be comma-separated redis:// (or all rediss://) URLs of cluster nodes, like redis://10.0.0.1:6379,redis://10.0.0.2:6379',
    })
    .optional(),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  LOG_LEVEL: Joi.string().valid("error", "warn", "info", "http", "verbose", "debug", "silly").default("info"),
  ENCRYPTION_KEY: Joi.string()
    .base64()
    .custom((value: string, helpers) =>
      Buffer.from(value, "base64").length === 32 ? value : helpers.error("any.invalid"),
    )
    .messages({ "any.invalid": '"ENCRYPTION_KEY" must be 32 bytes, base64 encoded' })
    .default(DEVELOPMENT_ENCRYPTION_KEY)
    .when("NODE_ENV", { is: "production", then: Joi.required().invalid(DEVELOPMENT_ENCRYPTION_KEY) }),
  PUBLIC_BASE_URL: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .custom((value: string, helpers) => {
      const problem = brCodeHostProblem(new URL(value).hostname, helpers.state.ancestors[0]?.NODE_ENV === "production");
      return problem === null ? value : helpers.message({ custom: `"PUBLIC_BASE_URL" ${problem}` });
    })
    .optional()
    .when("NODE_ENV", { is: "production", then: Joi.required() }),
  PANEL_ORIGINS: Joi.string()
    .custom((value: string, helpers) => {
      const origins = splitList(value);
      const ok = origins.length > 0 && origins.every((o) => /^https?:\/\/[^/\s]+$/.test(o) && URL.canParse(o));
      if (!ok) return helpers.error("any.invalid");
      if (helpers.state.ancestors[0]?.NODE_ENV === "production" && !origins.every(isProductionOrigin)) {
        return helpers.error("any.unsafe");
      }
      return value;
    })
    .messages({
      "any.invalid": '"PANEL_ORIGINS" must be a comma-separated list of origins like https://panel.example',
      "any.unsafe":
        '"PANEL_ORIGINS" must be https origins other than localhost or loopback when NODE_ENV is production',
    })
    .optional()
    .when("NODE_ENV", { is: "production", then: Joi.required() }),
  COOKIE_SECURE: booleanString
    .default(true)
    .when("NODE_ENV", { is: "production", then: Joi.valid(true) })
    .messages({ "any.only": '"COOKIE_SECURE" cannot be false when NODE_ENV is production' }),
  TERMS_VERSION: Joi.string().min(1).default("2026-01-01"),
  STEP_UP_WINDOW_SECONDS: Joi.number().integer().min(1).max(86400).default(600),
  RECURRENCE_LEAD_DAYS: Joi.number().integer().min(2).max(10).default(5),
  WEBHOOK_ALLOW_LOCAL_DESTINATIONS: booleanString
    .default(false)
    .when("NODE_ENV", { is: "production", then: Joi.valid(false) })
    .messages({ "any.only": '"WEBHOOK_ALLOW_LOCAL_DESTINATIONS" cannot be true when NODE_ENV is production' }),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(100),
  SMTP_URL: Joi.string()
    .uri({ scheme: ["smtp", "smtps"] })
    .optional(),
  MAIL_OUTBOX_DIR: Joi.string().default("var/mail"),
  RETRY_SCHEDULE_SECONDS: Joi.string()
    .pattern(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){4}\s*$/)
    .messages({ "string.pattern.base": '"RETRY_SCHEDULE_SECONDS" must be five comma-separated numbers of seconds' })
    .default(DEFAULT_RETRY_SCHEDULE_SECONDS.join(",")),
  ACQUIRER_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(5_000),
  // Braces would make the prefix the hash tag of every key, all in one slot of a cluster; each queue brings its own.
  QUEUE_PREFIX: Joi.string()
    .pattern(/^(?:[a-z0-9_-]{1,40}|\{[a-z0-9_-]{1,38}\})$/)
    .custom((value: string, helpers) =>
      helpers.state.ancestors[0]?.REDIS_CLUSTER_NODES !== undefined && value.startsWith("{")
        ? helpers.error("any.cluster")
        : value,
    )
    .messages({
      "string.pattern.base": '"QUEUE_PREFIX" must be 1-40 of a-z 0-9 _ - (or such a name in braces, outside a cluster)',
      "any.cluster":
        '"QUEUE_PREFIX" must not be in braces when REDIS_CLUSTER_NODES is set: each queue carries its own hash tag, and a braced prefix would put every key in one slot of one node (use e.g. lm)',
    })
    .default("lm"),
  DELIVERY_QUEUE_SHARDS: Joi.number().integer().min(1).max(64).default(8),
  BCRYPT_COST: Joi.number()
    .integer()
    .max(15)
    .default(12)
    .when("NODE_ENV", { is: "test", then: Joi.number().min(4), otherwise: Joi.number().min(12) }),
  TRUST_PROXY: Joi.alternatives()
    .try(
      Joi.number().integer().min(0).max(10),
      Joi.string().valid("false"),
      Joi.string().pattern(/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$|^(loopback|linklocal|uniquelocal)$/),
    )
    .messages({
      "string.pattern.base":
        '"TRUST_PROXY" must be false, a number of hops, or comma-separated proxy addresses/subnets',
    })
    .default("false"),
  MAIL_FROM: Joi.string().min(3).default("LM Pix <no-reply@localhost>"),
  METRICS_PORT: Joi.number().integer().min(0).max(65535).optional(),
  // Long enough that guessing is hopeless (it guards a route on the public port), printable so it fits a header.
  METRICS_TOKEN: Joi.string()
    .pattern(/^[\x21-\x7e]{32,256}$/)
    .messages({ "string.pattern.base": '"METRICS_TOKEN" must be 32 to 256 printable characters without spaces' })
    .optional(),
  RETENTION_DAYS: Joi.number().integer().min(30).max(3650).default(90),
}).unknown(true);

/** Express `trust proxy` value of `TRUST_PROXY`. */
function parseTrustProxy(value: string | number): Config["trustProxy"] {
  if (typeof value === "number") return value === 0 ? false : value;
  if (value === "false") return false;
  return value.split(",").map((v) => v.trim());
}

/**
 * The default of `PUBLIC_BASE_URL` and `PANEL_ORIGINS` outside production (DESIGN §6): the API's own address on this
 * machine, `http://localhost:<PORT>`, so that mailed links and the OpenAPI `servers` follow a moved port. `PORT` 0 (a
 * free port, chosen after start-up) gives `http://localhost:3000`, the default port's.
 */
function localOrigin(port: number): string {
  return `http://localhost:${port === 0 ? 3000 : port}`;
}

/**
 * Validates `env` and returns the typed configuration.
 * @param env - variables to read, usually `process.env`
 * @throws {ConfigError} listing every missing or invalid variable by name
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(error.details.map((d) => d.message));
  return {
    databaseUrl: value.DATABASE_URL,
    databasePooling: value.DATABASE_POOLING,
    databaseDirectUrl: value.DATABASE_DIRECT_URL,
    redisUrl: value.REDIS_URL,
    redisClusterNodes: value.REDIS_CLUSTER_NODES === undefined ? undefined : splitList(value.REDIS_CLUSTER_NODES),
    port: value.PORT,
    nodeEnv: value.NODE_ENV,
    logLevel: value.LOG_LEVEL,
    encryptionKey: Buffer.from(value.ENCRYPTION_KEY, "base64"),
    publicBaseUrl: (value.PUBLIC_BASE_URL ?? localOrigin(value.PORT)).replace(/\/+$/, ""),
    panelOrigins: splitList(value.PANEL_ORIGINS ?? localOrigin(value.PORT)),
    cookieSecure: value.COOKIE_SECURE,
    termsVersion: value.TERMS_VERSION,
    stepUpWindowSeconds: value.STEP_UP_WINDOW_SECONDS,
    recurrenceLeadDays: value.RECURRENCE_LEAD_DAYS,
    webhookAllowLocalDestinations: value.WEBHOOK_ALLOW_LOCAL_DESTINATIONS,
    workerConcurrency: value.WORKER_CONCURRENCY,
    deliveryQueueShards: value.DELIVERY_QUEUE_SHARDS,
    smtpUrl: value.SMTP_URL,
    mailOutboxDir: value.MAIL_OUTBOX_DIR,
    retryScheduleSeconds: value.RETRY_SCHEDULE_SECONDS.split(",").map(Number),
    acquirerTimeoutMs: value.ACQUIRER_TIMEOUT_MS,
    queuePrefix: value.QUEUE_PREFIX,
    bcryptCost: value.BCRYPT_COST,
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    mailFrom: value.MAIL_FROM,
    metricsPort: value.METRICS_PORT,
    metricsToken: value.METRICS_TOKEN,
    retentionDays: value.RETENTION_DAYS,
  };
}

/**
 * Loads the configuration for a process entry point; on failure prints the problems and exits with code 1.
 * @param env - variables to read, usually `process.env`
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
