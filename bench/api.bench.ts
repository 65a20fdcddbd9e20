/**
 * `npm run bench:api`: what a merchant gets from `POST /v1/transactions` and `GET /v1/transactions/{id}`,
 * against a bare Express 5 + pg baseline measured in the same run on the same machine.
 *
 * The API runs as its own process, started from the bundle `npm run build` writes with the command of
 * `npm run start:api` (read from package.json, logs on), against a fresh database cloned from the migrated template
 * and a fresh queue prefix. The load comes from this process with autocannon. Every creation carries a unique
 * `Idempotency-Key` and a `postback_url`, so idempotency, the destination check, the read of the store's postback
 * secret (a charge with a `postback_url` needs one) and the `transaction.created` fan-out (event, postback delivery
 * row and its delivery job) all run. The postback host is `localhost` (resolved by the
 * system resolver like any host, through /etc/hosts) with `WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true`, hence
 * `NODE_ENV=development`: the development machines resolve no public name. The per-key rate limit (100 requests/s)
 * stays at its value: the load is spread over `BENCH_KEYS` merchants' keys, in turn (default 50, so 5,000 requests/s
 * at most).
 *
 * Prints one JSON object: `{create: R, read: R, api_peak_rss_mb, redis_bytes_per_charge, ...}`, R = `{requests_per_s,
 * p50_ms, p99_ms, api_cpu_ms_per_request, postgres_cpu_ms_per_request, redis_cpu_ms_per_request,
 * baseline_requests_per_s, baseline_cpu_ms_per_request, baseline_postgres_cpu_ms_per_request, ratio}`. The CPU figures
 * are per request, ms: the API process's, the bench database's PostgreSQL backends' and the Redis server's (null when
 * Redis is not a process of this machine; the baseline uses none) in the API's slices, and the baseline process's
 * and its PostgreSQL backends' in the baseline's. `redis_bytes_per_charge` is Redis's
 * `used_memory` growth over the measured creation phase per charge created (no worker runs: each charge's postback
 * delivery job waits, as it would behind a busy worker). Knobs: `BENCH_CONCURRENCY` (20), `BENCH_DURATION_S` (10 per
 * phase), `BENCH_KEYS` (50), `BENCH_PROFILE_DIR` (runs the API under `--cpu-prof`, profiles written there; summarise
 * one with `npx tsx bench/profile-summary.ts <file> --from <s> --to <s>`).
 *
 * Then the live phase (DESIGN §9 "Live charge creation"): a live charge is written only after the bank accepted its
 * `PUT /cob/{txid}` (mutual TLS, OAuth2 token), so live creation costs one bank round trip more than test creation.
 * The bank is the API Pix emulator in its own process (`bench/bank-server.ts`), configured and activated as the live
 * acquirer before the API starts (the API caches the active acquirer). For each bank reply delay of
 * `BENCH_LIVE_LATENCIES_MS` (0 and 50 ms), after a 2 s warm-up, live creations (the same body, the same merchants'
 * live keys) and test creations take turns in slices, `BENCH_LIVE_DURATION_S` (6) each, so that the round trip's cost
 * reads as the difference of the two in the same minute; then both again over one connection (1 s slices, 2 s each),
 * where no queue hides the round trip. `live.phases[]` = `{bank_latency_ms, live: L, test: L, p50_added_ms,
 * p99_added_ms, throughput_ratio, api_cpu_added_ms_per_request, one_connection: {live_p50_ms, test_p50_ms,
 * p50_added_ms}}`, L = `{requests_per_s, p50_ms, p99_ms, api_cpu_ms_per_request, postgres_cpu_ms_per_request}`
 * (`live.bank_cpu_ms_per_request` too: the emulator's process), `throughput_ratio` = live ÷ test requests/s; then
 * `bank_schema_violations` (requests that broke the standard's schemas: 0 expected), `bank_cob_registrations` and
 * `live_charges` (the live rows written: one per registration).
 * Not a timed test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Client } from "pg";
import { createDb, createRepositories } from "@lm/db";
import { activateAcquirer, configureBankAcquirer } from "@lm/domain";
import { closeRedis, createRedis, whenSettled } from "@lm/queue";
import {
  createTestDatabase,
  createTestMerchant,
  deleteQueueKeys,
  ensureTemplateDatabase,
  freePort,
  givePostbackSecret,
  REPO_ROOT,
  serviceCommand,
  testConfig,
  uniqueQueuePrefix,
} from "@lm/testing";
import { startBankProcess, type BankProcess } from "./bank-server";
import { BASELINE_SCHEMA_SQL } from "./baseline-server";
import { buildServices } from "../scripts/build";
import {
  backendCpuMs,
  backendCpuSince,
  cpuMs,
  redisCpuMs,
  redisServerPid,
  redisUsedMemory,
  round,
} from "./support/children";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** Seconds of one slice: the API and the baseline take turns, `DURATION_S` each in all (see {@link compare}). */
const SLICE_S = Number(process.env.BENCH_SLICE_S ?? 2);
const KEYS = Number(process.env.BENCH_KEYS ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** Seconds of live and of test creation at each bank delay of the live phase (in slices of `SLICE_S`, in turn). */
const LIVE_DURATION_S = Number(process.env.BENCH_LIVE_DURATION_S ?? 6);
/** The bank's reply delays, ms, one live phase each. */
const LIVE_LATENCIES_MS = (process.env.BENCH_LIVE_LATENCIES_MS ?? "0,50").split(",").map(Number);
/** The slug of the emulated bank, the live acquirer. */
const LIVE_BANK_SLUG = "bench-bank";

/** A charge as an integrator would send it. */
const CHARGE_BODY = {
  amount: 1990,
  description: "Pedido 4512 - Loja Benchmark",
  expires_in: 3600,
  customer: { name: "Maria da Silva", document: "52998224725", email: "maria@example.com" },
  postback_url: "http://localhost:9/pix/postback",
  metadata: { order_id: "4512", source: "bench" },
};

/** Starts `node <args>` and waits for `GET <healthPath>` to answer. */
async function startProcess(args: string[], env: Record<string, string>, healthPath: string) {
  const command = args.join(" ");
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}${healthPath}`)).status < 500) return { child, base };
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`${command} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Resident set size of `pid` and its descendants (the cluster's workers), MB, from /proc. */
function treeRssMb(pid: number): number {
  const read = (p: number): number => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const children = readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      return kb + children.reduce((sum, c) => sum + read(Number(c)), 0);
    } catch {
      return 0;
    }
  };
  return read(pid) / 1024;
}

/** One side of a comparison: where to send, the status every reply must have, how to make each request. */
interface Side {
  url: string;
  status: number;
  next: () => autocannon.Request;
  /** The process serving it, whose CPU time is read around each of its slices. */
  pid: number;
}

/** What one side did over its slices. */
interface Tally {
  requests: number;
  ms: number;
  /** Every request's latency, ms. */
  latencies: number[];
  cpuMs: number;
  postgresCpuMs: number;
  redisCpuMs: number;
}

/** A tally of nothing yet. */
const emptyTally = (): Tally => ({ requests: 0, ms: 0, latencies: [], cpuMs: 0, postgresCpuMs: 0, redisCpuMs: 0 });

/** The servers both sides share, whose CPU time each slice reads: the bench database's name, and Redis's pid. */
interface SharedServers {
  database: string;
  /** NaN when Redis does not run on this machine. */
  redisPid: number;
}

/**
 * Runs autocannon against `side` for `seconds` and adds to `tally` what it did: its requests, their latencies, and
 * the CPU time that the side's process, the bench database's PostgreSQL backends (`backendCpuMs`; one side runs at
 * a time, so it is this side's) and the Redis server used meanwhile.
 * @throws Error on any reply other than `side.status`, a connection error or a timeout
 */
async function slice(
  side: Side,
  seconds: number,
  shared: SharedServers,
  tally?: Tally,
  connections = CONCURRENCY,
): Promise<void> {
  const postgresBefore = backendCpuMs(shared.database);
  const cpuBefore = cpuMs(side.pid);
  const redisBefore = redisCpuMs(shared.redisPid);
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: side.url,
        connections,
        duration: seconds,
        requests: [{ setupRequest: (req) => ({ ...req, ...side.next() }) }],
      },
      (err, done) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(done)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  const unexpected = result.non2xx + result.errors + result.timeouts;
  const okCount = result.statusCodeStats?.[String(side.status) as keyof typeof result.statusCodeStats]?.count ?? 0;
  if (unexpected > 0 || okCount === 0) {
    throw new Error(
      `${side.url}: ${JSON.stringify({ status: result.statusCodeStats, errors: result.errors, timeouts: result.timeouts })}`,
    );
  }
  if (tally === undefined) return;
  tally.requests += result.requests.total;
  tally.ms += result.duration * 1000;
  tally.latencies.push(...latencies);
  tally.cpuMs += cpuMs(side.pid) - cpuBefore;
  tally.postgresCpuMs += backendCpuSince(postgresBefore, backendCpuMs(shared.database));
  tally.redisCpuMs += redisCpuMs(shared.redisPid) - redisBefore;
}

/** The `q` quantile (0..1) of `sorted`, ms, one decimal. */
const quantile = (sorted: number[], q: number) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 1);

/** A side's figures: requests/s, latency p50 and p99 (ms), and CPU per request (ms) of its process and of PostgreSQL. */
function figures(tally: Tally) {
  const sorted = [...tally.latencies].sort((x, y) => x - y);
  return {
    requests_per_s: round((tally.requests / tally.ms) * 1000, 1),
    p50_ms: quantile(sorted, 0.5),
    p99_ms: quantile(sorted, 0.99),
    cpu_ms_per_request: round(tally.cpuMs / tally.requests, 2),
    postgres_cpu_ms_per_request: round(tally.postgresCpuMs / tally.requests, 2),
    redis_cpu_ms_per_request: round(tally.redisCpuMs / tally.requests, 2),
  };
}

/**
 * Measures `api` against `baseline`, `DURATION_S` each, in slices of `SLICE_S` taken in turn (A B B A A B …), so
 * that both meet the same machine: on a shared machine the load drifts over seconds, and back-to-back phases of 10 s
 * gave creation ratios from 0.27 to 0.46 within one hour. Returns the figures R of this file's header.
 */
async function compare(api: Side, baseline: Side, shared: SharedServers) {
  const [oursTally, bareTally] = await alternate(api, baseline, DURATION_S, shared);
  const ours = figures(oursTally);
  const bare = figures(bareTally);
  return {
    requests_per_s: ours.requests_per_s,
    p50_ms: ours.p50_ms,
    p99_ms: ours.p99_ms,
    api_cpu_ms_per_request: ours.cpu_ms_per_request,
    postgres_cpu_ms_per_request: ours.postgres_cpu_ms_per_request,
    redis_cpu_ms_per_request: ours.redis_cpu_ms_per_request,
    baseline_requests_per_s: bare.requests_per_s,
    baseline_p50_ms: bare.p50_ms,
    baseline_p99_ms: bare.p99_ms,
    baseline_cpu_ms_per_request: bare.cpu_ms_per_request,
    baseline_postgres_cpu_ms_per_request: bare.postgres_cpu_ms_per_request,
    ratio: round(ours.requests_per_s / bare.requests_per_s, 2),
  };
}

/**
 * Runs `first` and `second` for `seconds` each, in slices of `sliceS` taken in turn (A B B A A B …), each over
 * `connections`; their tallies.
 */
async function alternate(
  first: Side,
  second: Side,
  seconds: number,
  shared: SharedServers,
  { connections = CONCURRENCY, sliceS = SLICE_S } = {},
): Promise<[Tally, Tally]> {
  const firstTally = emptyTally();
  const secondTally = emptyTally();
  const turns: Array<[Side, Tally]> = [
    [first, firstTally],
    [second, secondTally],
  ];
  for (let i = 0; i < Math.max(1, Math.round(seconds / sliceS)); i++) {
    for (const [side, tally] of i % 2 === 0 ? turns : [...turns].reverse()) {
      await slice(side, sliceS, shared, tally, connections);
    }
  }
  return [firstTally, secondTally];
}

/**
 * The live phase of this file's header: for each bank delay, live creation (`live`) against test creation (`test`)
 * in turn, after a warm-up of live creation at that delay; then the two again over one connection, 2 s each.
 */
async function livePhases(bank: BankProcess, live: Side, test: Side, shared: SharedServers) {
  const phases = [];
  for (const latencyMs of LIVE_LATENCIES_MS) {
    await bank.setLatency(latencyMs);
    await slice(live, 2, shared);
    const bankCpuBefore = cpuMs(bank.child.pid ?? 0);
    const [liveTally, testTally] = await alternate(live, test, LIVE_DURATION_S, shared);
    // The bank is idle during the test slices: its CPU is the live slices'.
    const bankCpuMsPerRequest = round((cpuMs(bank.child.pid ?? 0) - bankCpuBefore) / liveTally.requests, 2);
    const [ours, sandbox] = [figures(liveTally), figures(testTally)].map((f) => ({
      requests_per_s: f.requests_per_s,
      p50_ms: f.p50_ms,
      p99_ms: f.p99_ms,
      api_cpu_ms_per_request: f.cpu_ms_per_request,
      postgres_cpu_ms_per_request: f.postgres_cpu_ms_per_request,
    }));
    if (ours === undefined || sandbox === undefined) throw new Error("no figures");
    // One request at a time: the round trip's own latency, without the queueing of a saturated machine.
    const [liveAlone, testAlone] = (await alternate(live, test, 2, shared, { connections: 1, sliceS: 1 })).map(
      (tally) => figures(tally).p50_ms,
    );
    if (liveAlone === undefined || testAlone === undefined) throw new Error("no figures");
    phases.push({
      bank_latency_ms: latencyMs,
      live: { ...ours, bank_cpu_ms_per_request: bankCpuMsPerRequest },
      test: sandbox,
      p50_added_ms: round(ours.p50_ms - sandbox.p50_ms, 1),
      p99_added_ms: round(ours.p99_ms - sandbox.p99_ms, 1),
      throughput_ratio: round(ours.requests_per_s / sandbox.requests_per_s, 2),
      api_cpu_added_ms_per_request: round(ours.api_cpu_ms_per_request - sandbox.api_cpu_ms_per_request, 2),
      one_connection: { live_p50_ms: liveAlone, test_p50_ms: testAlone, p50_added_ms: round(liveAlone - testAlone, 1) },
    });
  }
  return phases;
}

/** Rows in the bench database's `transactions`. */
async function chargeCount(admin: Client): Promise<number> {
  return Number((await admin.query<{ n: string }>("SELECT count(*) AS n FROM transactions")).rows[0]?.n);
}

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const queuePrefix = uniqueQueuePrefix();
  const encryptionKey = randomBytes(32).toString("base64");
  const sampleFile = path.join(tmpdir(), `lm-bench-sample-${randomBytes(4).toString("hex")}.json`);
  const children: ChildProcess[] = [];
  const admin = new Client({ connectionString: database.url });
  const redis = createRedis(REDIS_URL, "producer");
  // Started now, while the merchants are written: it makes its certificates first.
  const bankStarting = startBankProcess();
  bankStarting.then((bank) => children.push(bank.child)).catch(() => undefined);
  try {
    const db = createDb(database.url);
    const keys: string[] = [];
    const liveKeys: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      const merchant = await createTestMerchant(db, { name: `Loja Benchmark ${i}` });
      // The charges name a postback_url, which a store may only do once it has a postback secret.
      await givePostbackSecret(db, merchant.storeId, Buffer.from(encryptionKey, "base64"));
      keys.push(merchant.testKey);
      liveKeys.push(merchant.liveKey);
    }
    // The live acquirer, active before the API starts (the API caches the active acquirer for a few seconds).
    const bank = await bankStarting;
    const deps = {
      repos: createRepositories(db),
      config: testConfig(database.url, { ENCRYPTION_KEY: encryptionKey }),
      now: () => new Date(),
    };
    await configureBankAcquirer(deps, {
      slug: LIVE_BANK_SLUG,
      profile: "efi",
      apiUrl: bank.config.apiUrl,
      tokenUrl: bank.config.tokenUrl,
      clientId: bank.config.client.clientId,
      credentials: {
        clientSecret: bank.config.client.clientSecret,
        certPem: bank.config.client.certPem,
        keyPem: bank.config.client.keyPem,
        caPem: bank.config.client.caPem,
      },
      pixKey: bank.config.pixKey,
    });
    await activateAcquirer(deps, LIVE_BANK_SLUG, "live");
    await db.$disconnect();
    await admin.connect();
    await admin.query(BASELINE_SCHEMA_SQL);

    const profileDir = process.env.BENCH_PROFILE_DIR;
    await buildServices(["api"]);
    const { nodeArgs, bundle } = serviceCommand("api");
    const profileArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    const api = await startProcess(
      [...nodeArgs, ...profileArgs, bundle],
      {
        NODE_ENV: "development",
        WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
        DATABASE_URL: database.url,
        REDIS_URL,
        QUEUE_PREFIX: queuePrefix,
        ENCRYPTION_KEY: encryptionKey,
        PUBLIC_BASE_URL: "https://pix.lm-bench.example",
        PANEL_ORIGINS: "https://panel.lm-bench.example",
      },
      "/health",
    );
    children.push(api.child);

    let sequence = 0;
    const creation = (apiKeys: string[]) => (): autocannon.Request => {
      sequence++;
      return {
        method: "POST",
        path: "/v1/transactions",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${apiKeys[sequence % apiKeys.length]}`,
          "idempotency-key": `bench-${queuePrefix}-${sequence}`,
        },
        body: JSON.stringify({ ...CHARGE_BODY, external_id: `order-${queuePrefix}-${sequence}` }),
      };
    };
    const createRequest = creation(keys);
    const sample = await fetch(`${api.base}/v1/transactions`, createRequest() as RequestInit);
    if (sample.status !== 201) throw new Error(`sample creation answered ${sample.status}: ${await sample.text()}`);
    writeFileSync(sampleFile, await sample.text());

    const baseline = await startProcess(
      ["--import", "tsx", "bench/baseline-server.ts"],
      { DATABASE_URL: database.url, BASELINE_SAMPLE_FILE: sampleFile },
      "/charges/none",
    );
    children.push(baseline.child);
    const baselineCreate = (): autocannon.Request => ({
      method: "POST",
      path: "/charges",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(CHARGE_BODY),
    });

    let peakRssMb = 0;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, treeRssMb(api.child.pid ?? 0))), 200);

    await whenSettled(redis);
    const shared: SharedServers = {
      database: database.name,
      redisPid: await redisServerPid(redis),
    };
    // Warm-up (JIT, pools, BullMQ scripts), then the measured slices, API and baseline in turn.
    const apiCreate: Side = { url: api.base, status: 201, next: createRequest, pid: api.child.pid ?? 0 };
    const baseCreate: Side = { url: baseline.base, status: 201, next: baselineCreate, pid: baseline.child.pid ?? 0 };
    await slice(apiCreate, 3, shared);
    await slice(baseCreate, 3, shared);
    const chargesBefore = await chargeCount(admin);
    const redisBefore = await redisUsedMemory(redis);
    const create = await compare(apiCreate, baseCreate, shared);
    // Only the API's slices write charges or touch Redis.
    const redisBytesPerCharge =
      ((await redisUsedMemory(redis)) - redisBefore) / ((await chargeCount(admin)) - chargesBefore);

    const keyOfStore = new Map<string, string>();
    for (let i = 0; i < keys.length; i++) {
      const { rows } = await admin.query<{ store_id: string }>("SELECT store_id FROM api_keys WHERE key_prefix = $1", [
        keys[i]?.slice(0, 12),
      ]);
      keyOfStore.set(rows[0]?.store_id ?? "", keys[i] ?? "");
    }
    const charges = (
      await admin.query<{ id: string; store_id: string }>(
        // Stores in turn, so that reads spread evenly over the keys' rate limits.
        "SELECT id, store_id FROM transactions ORDER BY row_number() OVER (PARTITION BY store_id ORDER BY id), store_id LIMIT 5000",
      )
    ).rows;
    const baselineIds = (await admin.query<{ id: string }>("SELECT id FROM baseline_charges LIMIT 5000")).rows;
    let readSequence = 0;
    const readRequest = (): autocannon.Request => {
      const charge = charges[readSequence++ % charges.length];
      return {
        method: "GET",
        path: `/v1/transactions/${charge?.id}`,
        headers: { authorization: `Bearer ${keyOfStore.get(charge?.store_id ?? "")}` },
      };
    };
    const baselineRead = (): autocannon.Request => ({
      method: "GET",
      path: `/charges/${baselineIds[readSequence++ % baselineIds.length]?.id}`,
    });
    const apiRead: Side = { url: api.base, status: 200, next: readRequest, pid: api.child.pid ?? 0 };
    const baseRead: Side = { url: baseline.base, status: 200, next: baselineRead, pid: baseline.child.pid ?? 0 };
    await slice(apiRead, 2, shared);
    const read = await compare(apiRead, baseRead, shared);
    clearInterval(sampler);

    const liveCreate: Side = { url: api.base, status: 201, next: creation(liveKeys), pid: api.child.pid ?? 0 };
    const liveSample = await fetch(`${api.base}/v1/transactions`, liveCreate.next() as RequestInit);
    if (liveSample.status !== 201 || (await bank.report()).cob_puts !== 1) {
      throw new Error(`live sample creation answered ${liveSample.status}: ${await liveSample.text()}`);
    }
    const phases = await livePhases(bank, liveCreate, apiCreate, shared);
    // A request still in flight when the last slice ended is registered at the bank before its row is written.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const bankReport = await bank.report();
    if (bankReport.violations.length > 0) {
      process.stderr.write(`bank schema violations (first 5): ${JSON.stringify(bankReport.violations.slice(0, 5))}\n`);
    }
    const liveCharges = Number(
      (await admin.query<{ n: string }>("SELECT count(*) AS n FROM transactions WHERE mode = 'live'")).rows[0]?.n,
    );

    process.stdout.write(
      `${JSON.stringify({
        create,
        read,
        api_peak_rss_mb: Math.round(peakRssMb),
        redis_bytes_per_charge: Math.round(redisBytesPerCharge),
        concurrency: CONCURRENCY,
        duration_s: DURATION_S,
        slice_s: SLICE_S,
        api_keys: KEYS,
        reply_bytes: readFileSync(sampleFile).length,
        live: {
          phases,
          bank_schema_violations: bankReport.violations.length,
          bank_cob_registrations: bankReport.cob_puts,
          live_charges: liveCharges,
          duration_s: LIVE_DURATION_S,
        },
      })}\n`,
    );
  } finally {
    await admin.end().catch(() => undefined);
    await closeRedis(redis);
    await Promise.all(children.map(stopProcess));
    await deleteQueueKeys(REDIS_URL, queuePrefix);
    await database.drop();
    rmSync(sampleFile, { force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
