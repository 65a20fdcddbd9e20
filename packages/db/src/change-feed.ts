/**
 * A PostgreSQL `LISTEN` kept open on a connection of its own, for process-local caches that must forget what a
 * committed change made stale (such as the API's authenticated keys). A trigger `NOTIFY`s the channel in the
 * changing transaction, so every listener hears of the change once it commits, whoever made it (the API, the worker,
 * the ops command line, an operator's SQL).
 *
 * A cache may keep entries only while the feed is online, and a feed is online only while it proves it hears
 * (DESIGN §10 "PostgreSQL through a pooler"): once `LISTEN` is in place, and then every
 * {@link CHANGE_FEED_PROBE_INTERVAL_MS}, it notifies a probe of its own through the service's pool, the path the
 * service's changes take, and must hear it back within {@link CHANGE_FEED_PROBE_DEADLINE_MS}. A `LISTEN` that went
 * through a transaction-mode pooler is registered on a server connection the pooler lends to others, so it hears
 * nothing, silently: only the probe tells. A connection that fails, or a probe not heard back, makes the feed report
 * `offline` at once; it then reconnects with a growing delay and reports `online` when a probe is heard again.
 */
import { randomBytes } from "node:crypto";
import { Client, type Pool } from "pg";
import { sql, sqlQuery } from "./sql";

/** Delay before the first reconnection attempt, ms; it doubles up to {@link MAX_RECONNECT_DELAY_MS}. */
const FIRST_RECONNECT_DELAY_MS = 100;
const MAX_RECONNECT_DELAY_MS = 5_000;
/** Longest the feed's connection may take to open, ms. */
const CONNECTION_TIMEOUT_MS = 5_000;

/** Time between a probe heard back and the next one, ms. */
export const CHANGE_FEED_PROBE_INTERVAL_MS = 250;

/**
 * Longest a probe may take from its `NOTIFY`'s commit to being heard back, ms. With
 * {@link CHANGE_FEED_PROBE_INTERVAL_MS} it bounds how long a feed that stopped hearing goes unnoticed (750 ms plus the
 * few ms of sending a probe), and so how long a cache may serve a key deleted meanwhile: under the 1 s in which every
 * process must refuse it. Counted from the commit, not from the send: waiting for a pool connection (the first one
 * opens, or all are busy) says nothing about whether the feed hears.
 */
export const CHANGE_FEED_PROBE_DEADLINE_MS = 500;

/** Why a feed is offline when its probe was not heard back: most likely, its `LISTEN` went through a pooler. */
const UNHEARD =
  `the change feed cannot hear its own notifications (a probe notified through the service's pool was not heard ` +
  `back within ${CHANGE_FEED_PROBE_DEADLINE_MS} ms): is DATABASE_DIRECT_URL a pooler?`;

/** Payloads of the feeds' probes start with it; the triggers' notifications never do. */
const PROBE_PAYLOAD_PREFIX = "lm-probe:";

/** The `application_name` of the feed's connection on `channel`. */
export function feedName(channel: string): string {
  return `lm-change-feed:${channel}`;
}

/** What a {@link listenForChanges} caller is told. */
export interface ChangeFeedHandlers {
  /** A change's notification arrived on the channel (its payload is not used: a change means "forget"). */
  onChange(): void;
  /** The feed heard its own probe: changes committed from now on will be heard. */
  onOnline(): void;
  /**
   * The feed was starting or online and may now miss changes: its connection failed, or it could not hear its probe.
   * Called once per episode, not for each failed reconnection.
   * @param reason - what failed, in words fit for a log line (no connection string)
   */
  onOffline(reason: Error): void;
}

/** Where a feed listens and how it proves it hears. */
export interface ChangeFeedOptions {
  /**
   * Connection string of the `LISTEN`: a session of its own on the server (`DATABASE_DIRECT_URL`), never through a
   * transaction-mode pooler.
   */
  listenUrl: string;
  /** A plain identifier (it is written into `LISTEN` as is). */
  channel: string;
  /** The service's own pool (`DATABASE_URL`, perhaps a pooler): the probes are notified through it. */
  probeThrough: Pool;
}

/** A running feed. */
export interface ChangeFeed {
  /**
   * Resolves once every change committed before the call has been handed to `onChange` (a barrier: the feed's own
   * `NOTIFY` comes back after every notification committed before it). Resolves at once while offline, when the
   * cache keeps nothing anyway.
   */
  catchUp(): Promise<void>;
  /**
   * Resolves while the feed is online; throws the reason while it is offline. Just after the feed was created, waits
   * for the first verdict (the first probe heard, or a failure).
   * @throws Error saying why the feed is offline
   */
  check(): Promise<void>;
  /** Stops listening and closes the connection; no handler is called afterwards. */
  close(): Promise<void>;
}

/** A probe on its way: its payload, and once its `NOTIFY` committed, the timer that gives it up. */
interface Probe {
  payload: string;
  deadline?: NodeJS.Timeout;
}

/** What the feed last concluded about itself. */
type Verdict = { online: true } | { online: false; reason: Error };

/** `err` as an `Error` whose message starts with `context`. */
function failure(context: string, err: unknown): Error {
  return new Error(`${context}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/**
 * Listens on `options.channel` until closed, proving every {@link CHANGE_FEED_PROBE_INTERVAL_MS} that it hears, and
 * reconnecting after failures.
 * @throws Error when the channel is not a plain identifier
 */
export function listenForChanges(options: ChangeFeedOptions, handlers: ChangeFeedHandlers): ChangeFeed {
  const { listenUrl, channel, probeThrough } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  // Every API process hears every other's probes on the channel: each knows its own by this.
  const probePrefix = `${PROBE_PAYLOAD_PREFIX}${randomBytes(8).toString("hex")}:`;
  let probesSent = 0;
  let client: Client | undefined;
  let verdict: Verdict | undefined;
  let closed = false;
  let delay = FIRST_RECONNECT_DELAY_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let nextProbeTimer: NodeJS.Timeout | undefined;
  let probe: Probe | undefined;
  const waitingForVerdict: Array<() => void> = [];

  const judge = (next: Verdict) => {
    const changed = verdict?.online !== next.online;
    verdict = next;
    for (const resolve of waitingForVerdict.splice(0)) resolve();
    if (!changed || closed) return;
    if (next.online) handlers.onOnline();
    else handlers.onOffline(next.reason);
  };

  const stopProbing = () => {
    clearTimeout(nextProbeTimer);
    if (probe) clearTimeout(probe.deadline);
    probe = undefined;
  };

  const fail = (failed: Client, reason: Error) => {
    if (client !== failed) return;
    client = undefined;
    stopProbing();
    failed.removeAllListeners("notification");
    failed.end().catch(() => undefined);
    judge({ online: false, reason });
    if (!closed) {
      reconnectTimer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    }
  };

  function sendProbe(on: Client): void {
    if (client !== on) return;
    const sent: Probe = { payload: `${probePrefix}${++probesSent}` };
    probe = sent;
    sqlQuery(probeThrough, sql`SELECT pg_notify(${channel}, ${sent.payload})`).then(
      // Unless it was heard already: the notification may arrive before the statement's own reply.
      () => {
        if (probe === sent)
          sent.deadline = setTimeout(() => fail(on, new Error(UNHEARD)), CHANGE_FEED_PROBE_DEADLINE_MS);
      },
      (err: unknown) => fail(on, failure("the change feed could not notify its probe through the service's pool", err)),
    );
  }

  const heard = (on: Client, payload: string) => {
    if (!payload.startsWith(PROBE_PAYLOAD_PREFIX)) return handlers.onChange();
    // Another process's probe, or one of ours given up already.
    if (probe === undefined || payload !== probe.payload) return;
    clearTimeout(probe.deadline);
    probe = undefined;
    delay = FIRST_RECONNECT_DELAY_MS;
    judge({ online: true });
    nextProbeTimer = setTimeout(() => sendProbe(on), CHANGE_FEED_PROBE_INTERVAL_MS);
  };

  function connect(): void {
    // Named, so that operators (and tests) find it in pg_stat_activity.
    const next = new Client({
      connectionString: listenUrl,
      keepAlive: true,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      application_name: feedName(channel),
    });
    client = next;
    next.on("notification", (message) => {
      if (message.channel === channel) heard(next, message.payload ?? "");
    });
    next.on("error", (err) => fail(next, failure("the change feed's connection failed", err)));
    next.on("end", () => fail(next, new Error("the change feed's connection closed")));
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => sendProbe(next))
      .catch((err: unknown) => fail(next, failure("the change feed could not listen", err)));
  }

  connect();
  return {
    async catchUp() {
      // A connection failing meanwhile goes offline, which empties the cache: caught up all the same.
      if (verdict?.online && client) {
        await client.query("SELECT pg_notify($1, 'catch-up')", [channel]).catch(() => undefined);
      }
    },
    async check() {
      if (verdict === undefined && !closed) await new Promise<void>((resolve) => waitingForVerdict.push(resolve));
      if (closed) throw new Error("the change feed is closed");
      if (verdict?.online === false) throw verdict.reason;
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      stopProbing();
      for (const resolve of waitingForVerdict.splice(0)) resolve();
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
