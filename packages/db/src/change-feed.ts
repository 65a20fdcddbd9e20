/**
 * A PostgreSQL `LISTEN` kept open on a connection of its own, for process-local caches that must forget what a
 * committed change made stale (such as the API's authenticated keys). A trigger `NOTIFY`s the channel in the
 * changing transaction, so every listener hears of the change once it commits, whoever made it (the API, the worker,
 * the ops command line, an operator's SQL).
 *
 * A cache may keep entries only while the feed is online: a notification sent while the connection was down is lost,
 * so the feed reports `offline` at once when the connection fails, reconnects with a growing delay, and reports
 * `online` only after `LISTEN` has succeeded again.
 */
import { Client } from "pg";

/** Delay before the first reconnection attempt, ms; it doubles up to {@link MAX_RECONNECT_DELAY_MS}. */
const FIRST_RECONNECT_DELAY_MS = 100;
const MAX_RECONNECT_DELAY_MS = 5_000;

/** The `application_name` of the feed's connection on `channel`. */
export function feedName(channel: string): string {
  return `lm-change-feed:${channel}`;
}

/** What a {@link listenForChanges} caller is told. */
export interface ChangeFeedHandlers {
  /** A notification arrived on the channel (its payload is not used: a change means "forget"). */
  onChange(): void;
  /** `LISTEN` is in place: changes committed from now on will be heard. */
  onOnline(): void;
  /** The connection failed or closed: changes may go unheard until the next `onOnline`. */
  onOffline(err?: Error): void;
}

/** A running feed. */
export interface ChangeFeed {
  /**
   * Resolves once every change committed before the call has been handed to `onChange` (a barrier: the feed's own
   * `NOTIFY` comes back after every notification committed before it). Resolves at once while offline, when the
   * cache keeps nothing anyway.
   */
  catchUp(): Promise<void>;
  /** Stops listening and closes the connection; no handler is called afterwards. */
  close(): Promise<void>;
}

/**
 * Listens on `channel` of the database at `databaseUrl` until closed, reconnecting after failures.
 * @param channel - a plain identifier (it is written into `LISTEN` as is)
 */
export function listenForChanges(databaseUrl: string, channel: string, handlers: ChangeFeedHandlers): ChangeFeed {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let client: Client | undefined;
  let online = false;
  let closed = false;
  let delay = FIRST_RECONNECT_DELAY_MS;
  let timer: NodeJS.Timeout | undefined;

  const goOffline = (failed: Client, err?: Error) => {
    if (client !== failed) return;
    client = undefined;
    failed.removeAllListeners("notification");
    failed.end().catch(() => undefined);
    if (online) {
      online = false;
      handlers.onOffline(err);
    }
    if (!closed) {
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    }
  };

  function connect(): void {
    // Named, so that operators (and tests) find it in pg_stat_activity.
    const next = new Client({ connectionString: databaseUrl, keepAlive: true, application_name: feedName(channel) });
    client = next;
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.onChange();
    });
    next.on("error", (err) => goOffline(next, err));
    next.on("end", () => goOffline(next));
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => {
        if (closed || client !== next) return;
        online = true;
        delay = FIRST_RECONNECT_DELAY_MS;
        handlers.onOnline();
      })
      .catch((err: unknown) => goOffline(next, err instanceof Error ? err : new Error(String(err))));
  }

  connect();
  return {
    async catchUp() {
      // A connection failing meanwhile goes offline, which empties the cache: caught up all the same.
      if (online && client) await client.query("SELECT pg_notify($1, 'catch-up')", [channel]).catch(() => undefined);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const last = client;
      client = undefined;
      online = false;
      await last?.end().catch(() => undefined);
    },
  };
}
