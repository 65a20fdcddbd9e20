/**
 * What the benches share: child processes started as deployed (`node --import tsx`), waiting for their output, a
 * local receiver, CPU and Redis memory readings, and rounding for the printed JSON.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { REPO_ROOT } from "@lm/testing";

/**
 * Starts `node --import tsx <args>` (no tsx CLI in between, so signals reach the process itself) and waits for a line
 * of its output matching `ready`. The child is added to `children`, for the caller to kill at the end.
 */
export async function startChild(
  children: ChildProcess[],
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
) {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const match = await waitForOutput(child, ready);
  return { child, match };
}

/** The command of the npm script `name` of this repository (`start:api`, `start:worker`), from package.json. */
export function npmScript(name: string): string {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = scripts[name];
  if (command === undefined) throw new Error(`package.json has no script ${name}`);
  return command;
}

/**
 * The node flags of `npm run start:worker` (`node <flags> --import tsx apps/worker/src/main.ts`), so that a bench runs
 * its workers, and the bare baselines they are compared with, as deployed.
 */
export function workerNodeFlags(): string[] {
  const command = /^node (.*)--import tsx apps\/worker\/src\/main\.ts$/.exec(npmScript("start:worker"));
  if (!command) throw new Error("start:worker is not `node [flags] --import tsx apps/worker/src/main.ts`");
  return command[1]?.split(" ").filter((flag) => flag !== "") ?? [];
}

/**
 * Starts the real worker (`apps/worker/src/main.ts`) as `npm run start:worker` does, with `env` and `extraNodeArgs`
 * (a CPU profile), and waits until it consumes.
 */
export function startWorker(children: ChildProcess[], env: Record<string, string>, extraNodeArgs: string[] = []) {
  return startChild(children, ["apps/worker/src/main.ts"], env, /worker consuming/, [
    ...workerNodeFlags(),
    ...extraNodeArgs,
  ]);
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
 * answered 200 as fast as it can with keep-alive, except paths starting `/hanging`, which are never answered.
 */
export async function runReceiver(): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/hanging")) return;
    req.on("end", () => res.end("ok"));
  });
  server.keepAliveTimeout = 60_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
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
 * prefix, its concurrency, local receivers allowed.
 */
export function workerEnv(
  config: { databaseUrl: string; redisUrl: string; queuePrefix: string },
  concurrency: number,
): Record<string, string> {
  return {
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    WORKER_CONCURRENCY: String(concurrency),
    WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    NODE_ENV: "development",
    LOG_LEVEL: "info",
  };
}
