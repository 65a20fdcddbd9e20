/**
 * `npm run bench:isolation` (DESIGN §8 "Isolation"): do healthy destinations keep their latency while others
 * hang? Prints one JSON object.
 *
 * Processes, as deployed: a local receiver (child) that answers 200 at once, except on `/hanging-*` paths, which it
 * never answers (each attempt there ends at the 10 s timeout); the real worker (child); and in this process the
 * fan-out, through the domain's own `recordEvent` and `enqueueDeliveries`, one event per store and transaction.
 * 50 stores with one endpoint each, 10 of them hanging; events arrive open-loop (on a clock, whatever the engine
 * does) at BENCH_RATE per second for BENCH_SECONDS, spread evenly over the endpoints. The same run first measures a
 * baseline with no hanging endpoint for BENCH_BASELINE_SECONDS; `ratio` = p99 with hanging endpoints / baseline p99.
 * Then, for BENCH_SECONDS again, the delivery controls (DESIGN §16): of 50 new endpoints, BENCH_CONTROLLED are paused,
 * as many rate-limited to 1 a second, and as many FIFO at a path answering 500 (a head failing holds each one's
 * rest); `controlled.ratio_p99` = the healthy endpoints' p99 then / baseline p99.
 *
 * Environment: BENCH_RATE (200), BENCH_SECONDS (60), BENCH_BASELINE_SECONDS (20), BENCH_ENDPOINTS (50),
 * BENCH_HANGING (10), BENCH_CONTROLLED (5), WORKER_CONCURRENCY (100).
 */
import type { ChildProcess } from "node:child_process";
import { createLogger } from "@lm/logging";
import { createDb, createRepositories, type Db } from "@lm/db";
import { enqueueDeliveries, recordEvent } from "@lm/domain";
import { closeRedis, createProducer, createRedis, type Producer } from "@lm/queue";
import {
  createEndpointRow,
  createStoreRow,
  createTestDatabase,
  deleteQueueKeys,
  ensureTemplateDatabase,
  testConfig,
} from "@lm/testing";
import { round, runReceiver, startChild, startWorker, workerEnv } from "./support/children";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 20);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 50);
const HANGING = Number(process.env.BENCH_HANGING ?? 10);
const CONTROLLED = Number(process.env.BENCH_CONTROLLED ?? 5);
const WORKER_CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 100);

/** What an endpoint of the bench is: healthy, or one whose deliveries the healthy ones must not wait for. */
type EndpointKind = "healthy" | "hanging" | "paused" | "throttled" | "fifo_failing";

/** A store with its one endpoint. */
interface Destination {
  storeId: string;
  endpoint: { id: string; url: string };
  kind: EndpointKind;
}

async function main(): Promise<void> {
  if (process.argv[2] === "receiver") return runReceiver();

  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url, { WORKER_CONCURRENCY: String(WORKER_CONCURRENCY) });
  const children: ChildProcess[] = [];
  const db = createDb(config.databaseUrl, { maxConnections: 40 });
  const redis = createRedis(config.redisUrl, "producer");
  const producer = createProducer(redis, config, () => undefined);
  try {
    const receiver = await startChild(children, ["bench/isolation.bench.ts", "receiver"], {}, /listening (\d+)/);
    const receiverUrl = `http://127.0.0.1:${receiver.match[1]}`;
    await startWorker(children, workerEnv(config, WORKER_CONCURRENCY));

    progress("worker started; baseline");
    const baselineDestinations = await destinations(db, config.encryptionKey, receiverUrl, () => "healthy");
    const baselineStarted = new Date();
    const baselineEvents = await openLoop(db, producer, baselineDestinations, BASELINE_SECONDS);
    const baseline = await healthyLatency(db, baselineDestinations, baselineStarted, baselineEvents);

    progress(`baseline done: ${JSON.stringify(baseline)}; with ${HANGING} hanging endpoints`);
    const loaded = await destinations(db, config.encryptionKey, receiverUrl, (i) =>
      i < HANGING ? "hanging" : "healthy",
    );
    const started = new Date();
    const events = await openLoop(db, producer, loaded, SECONDS);
    const measured = await healthyLatency(db, loaded, started, events);

    progress(`hanging done: ${JSON.stringify(measured)}; with ${CONTROLLED} each of paused, throttled, FIFO failing`);
    const kinds: EndpointKind[] = ["paused", "throttled", "fifo_failing"];
    const controlled = await destinations(db, config.encryptionKey, receiverUrl, (i) =>
      i < CONTROLLED * kinds.length ? (kinds[Math.floor(i / CONTROLLED)] as EndpointKind) : "healthy",
    );
    const controlledStarted = new Date();
    const controlledEvents = await openLoop(db, producer, controlled, SECONDS);
    const controlledMeasured = await healthyLatency(db, controlled, controlledStarted, controlledEvents);

    process.stdout.write(
      `${JSON.stringify(
        {
          events,
          events_per_s: RATE,
          seconds: SECONDS,
          endpoints: ENDPOINTS,
          hanging_endpoints: HANGING,
          worker_concurrency: WORKER_CONCURRENCY,
          healthy_event_to_first_attempt_ms: measured.latency,
          healthy_attempts: measured.attempts,
          hanging_attempts_ended: await attemptsTo(db, loaded, "hanging"),
          baseline: {
            events: baselineEvents,
            seconds: BASELINE_SECONDS,
            healthy_event_to_first_attempt_ms: baseline.latency,
          },
          ratio_p99: round(measured.latency.p99 / baseline.latency.p99, 2),
          controlled: {
            events: controlledEvents,
            endpoints_each: { paused: CONTROLLED, throttled_1_per_s: CONTROLLED, fifo_failing: CONTROLLED },
            healthy_event_to_first_attempt_ms: controlledMeasured.latency,
            healthy_attempts: controlledMeasured.attempts,
            paused_attempts: await attemptsTo(db, controlled, "paused"),
            throttled_attempts: await attemptsTo(db, controlled, "throttled"),
            fifo_failing_attempts: await attemptsTo(db, controlled, "fifo_failing"),
            ratio_p99: round(controlledMeasured.latency.p99 / baseline.latency.p99, 2),
          },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await producer.close();
    await closeRedis(redis);
    await db.$disconnect();
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await database.drop();
  }
}

/** A line on stderr, so a long run shows where it is. */
function progress(message: string): void {
  process.stderr.write(`[bench:isolation] ${message}\n`);
}

/**
 * {@link ENDPOINTS} stores with one endpoint each, endpoint `i` of kind `kindOf(i)`: a hanging one on a path the
 * receiver never answers, a FIFO failing one on a path it answers 500, a paused one, or one limited to 1 a second.
 */
async function destinations(
  db: Db,
  encryptionKey: Buffer,
  receiverUrl: string,
  kindOf: (i: number) => EndpointKind,
): Promise<Destination[]> {
  const made: Destination[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const kind = kindOf(i);
    const { store } = await createStoreRow(db, encryptionKey);
    const path = kind === "hanging" ? `/hanging-${i}` : kind === "fifo_failing" ? `/failing-${i}` : `/healthy-${i}`;
    const { endpoint } = await createEndpointRow(db, encryptionKey, {
      storeId: store.id,
      url: `${receiverUrl}${path}`,
      paused: kind === "paused",
      rateLimit: kind === "throttled" ? 1 : null,
      ordering: kind === "fifo_failing" ? "fifo" : "none",
    });
    made.push({ storeId: store.id, endpoint: { id: endpoint.id, url: endpoint.url }, kind });
  }
  return made;
}

/**
 * Records {@link RATE} events a second for `seconds`, round-robin over the destinations, on a clock: a tick every
 * 10 ms starts the events due by then without waiting for earlier ones (open loop).
 * @returns how many events were recorded (an event whose transaction could not start is left out)
 */
async function openLoop(db: Db, producer: Producer, targets: Destination[], seconds: number): Promise<number> {
  const repos = createRepositories(db);
  const deps = { repos, producer, logger: createLogger({ level: "error", service: "bench", silent: true }) };
  const total = RATE * seconds;
  const started = Date.now();
  const running = new Set<Promise<void>>();
  let sent = 0;
  let failed = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
    for (; sent < due; sent++) {
      const target = targets[sent % targets.length] as Destination;
      const work = repos
        .transaction((tx) =>
          recordEvent(tx, {
            scope: { storeId: target.storeId, mode: "test" },
            type: "transaction.paid",
            object: { id: `txn_bench${sent}`, object: "transaction", status: "paid", amount: 1990 },
            now: new Date(),
          }),
        )
        .then(({ deliveryIds }) => enqueueDeliveries(deps, deliveryIds))
        .catch((err: unknown) => {
          // A busy shared machine can starve the bench's own pool; the event is not recorded and is not counted.
          failed += 1;
          if (failed === 1)
            progress(`an event could not be recorded: ${err instanceof Error ? err.message : String(err)}`);
        });
      const tracked: Promise<void> = work.finally(() => running.delete(tracked));
      running.add(tracked);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(running);
  return total - failed;
}

/** Event → attempt 1 of the healthy endpoints' deliveries, once all of them were attempted (or 60 s passed). */
async function healthyLatency(db: Db, targets: Destination[], since: Date, events: number) {
  const healthy = targets.filter((t) => t.kind === "healthy").map((t) => t.endpoint.id);
  const expected = Math.round((events * healthy.length) / targets.length);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const done = await db.webhookDelivery.count({
      where: { endpoint_id: { in: healthy }, attempt: 1, status: { not: "pending" } },
    });
    if (done >= expected || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const [row] = await db.$queryRaw<Array<{ attempts: bigint; p50: number; p99: number }>>`
    SELECT count(*) AS attempts,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p99
    FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
    WHERE d.attempt = 1 AND d.endpoint_id = ANY(${healthy}) AND d.attempted_at IS NOT NULL AND e.created_at >= ${since}`;
  return {
    attempts: Number(row?.attempts ?? 0),
    latency: { p50: round(Number(row?.p50 ?? NaN), 1), p99: round(Number(row?.p99 ?? NaN), 1) },
  };
}

/** Attempts to the endpoints of `kind` that ended by now (a hanging one's at its timeout). */
async function attemptsTo(db: Db, targets: Destination[], kind: EndpointKind): Promise<number> {
  const ids = targets.filter((t) => t.kind === kind).map((t) => t.endpoint.id);
  return db.webhookDelivery.count({ where: { endpoint_id: { in: ids }, attempted_at: { not: null } } });
}

main().then(
  () => {
    if (process.argv[2] === undefined) process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
