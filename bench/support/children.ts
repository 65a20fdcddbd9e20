/**
 * What the benches share: child processes started as deployed (the services from the bundles `npm run build` writes,
 * the benches' own helpers with `node --import tsx`), waiting for their output, a local receiver, CPU and Redis memory
 * readings, and rounding for the printed JSON.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { freePort, REPO_ROOT, serviceCommand } from "@lm/testing";
import { buildServices } from "../../scripts/build";

/**
 * Starts `node <args>` and waits for a line of its output matching `ready`. The child is added to `children`, for the
 * caller to kill at the end.
 */
async function startNode(children: ChildProcess[], args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const match = await waitForOutput(child, ready);
  return { child, match };
}

/**
 * Starts a TypeScript file of the benches, `node <nodeArgs> --import tsx <args>` (no tsx CLI in between, so signals
 * reach the process itself), and waits for a line of its output matching `ready` (see {@link startNode}).
 */
export function startChild(
  children: ChildProcess[],
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
) {
  return startNode(children, [...nodeArgs, "--import", "tsx", ...args], env, ready);
}

/** The node flags of `npm run start:worker`, for a bare baseline worker to run with the worker's own. */
export function workerNodeFlags(): string[] {
  return serviceCommand("worker").nodeArgs;
}

/**
 * Builds the worker's bundle and starts it as `npm run start:worker` does, with `env` and `extraNodeArgs` (a CPU
 * profile), and waits until it consumes.
 */
export async function startWorker(children: ChildProcess[], env: Record<string, string>, extraNodeArgs: string[] = []) {
  await buildServices(["worker"]);
  const { nodeArgs, bundle } = serviceCommand("worker");
  return startNode(children, [...nodeArgs, ...extraNodeArgs, bundle], env, /worker consuming/);
}

/**
 * Builds the API's bundle and starts it as `npm run start:api` does, with `env` on a free port, and waits until it
 * listens.
 * @returns the child and the API's base URL, `http://127.0.0.1:<port>`
 */
export async function startApi(children: ChildProcess[], env: Record<string, string>) {
  await buildServices(["api"]);
  const { nodeArgs, bundle } = serviceCommand("api");
  const port = await freePort();
  const { child } = await startNode(children, [...nodeArgs, bundle], { ...env, PORT: String(port) }, /api listening/);
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        child.off("exit", onExit);
        resolve(match);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) before ${pattern}:\n${output}`));
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

/**
 * Runs a receiver in this process (meant as a child: `<bench> receiver`) and prints `listening <port>`: every POST is
 * answered 200 as fast as it can with keep-alive, except paths starting `/hanging`, which are never answered, and
 * `/failing`, answered 500.
 */
export async function runReceiver(): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/hanging")) return;
    if (req.url?.startsWith("/failing")) res.statusCode = 500;
    req.on("end", () => res.end("ok"));
  });
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
}

/**
 * The entry point of a bench part run alone (`npx tsx bench/scale/<part>.ts`): started as `<file> receiver` (as a part
 * starts its own receiver, see {@link runReceiver}) it runs the receiver; otherwise it prints the part's figures as
 * JSON, or the error's stack and exits 1.
 */
export function runBenchPart(measure: () => Promise<Record<string, unknown>>): void {
  if (process.argv[2] === "receiver") {
    void runReceiver();
    return;
  }
  measure().then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}

/** CPU time (user + system) process `pid` has used so far, ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) of each PostgreSQL backend now serving database `name`, by pid, from /proc: a bench's own database
 * has a unique name, so this is its share of a PostgreSQL server that other work shares.
 */
export function backendCpuMs(name: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (args.startsWith("postgres: ") && args.includes(` ${name} `)) found.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** CPU (ms) the backends of {@link backendCpuMs} used between two readings (backends opened meanwhile included). */
export function backendCpuSince(before: Map<number, number>, now: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** The pid of the Redis server `redis` is connected to (`INFO server`). */
export async function redisServerPid(redis: { info(section: "server"): Promise<string> }): Promise<number> {
  return Number(/process_id:(\d+)/.exec(await redis.info("server"))?.[1] ?? NaN);
}

/** CPU time (ms) Redis server `pid` has used so far; NaN when it is not a process of this machine. */
export function redisCpuMs(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return NaN;
  }
}

/** Redis's `used_memory` (`INFO memory`), bytes. */
export async function redisUsedMemory(redis: { info(section: "memory"): Promise<string> }): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1] ?? NaN);
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The environment of a real worker process for a bench: the bench's database, Redis (`TEST_REDIS_URL` when set) and
 * prefix, its concurrency, local receivers allowed; and, for a bench that enqueues jobs itself, its shard count, so
 * that the worker consumes the shards the bench fills (the environment's `DELIVERY_QUEUE_SHARDS`, which the child would
 * inherit otherwise, is not the bench's).
 */
export function workerEnv(
  config: { databaseUrl: string; redisUrl: string; queuePrefix: string; deliveryQueueShards?: number },
  concurrency: number,
): Record<string, string> {
  return {
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    ...(config.deliveryQueueShards === undefined ? {} : { DELIVERY_QUEUE_SHARDS: String(config.deliveryQueueShards) }),
    WORKER_CONCURRENCY: String(concurrency),
    WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    NODE_ENV: "development",
    LOG_LEVEL: "info",
  };
}
