/**
 * Throw-away PostgreSQL and Redis servers for runs that break them (the chaos run) and a Redis Cluster for the tests
 * that run the service on one: each on a free loopback port, in a temporary folder, so that killing, flushing and
 * restarting them never touches the machine's shared services.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { waitUntil } from "./wait-until";

const run = promisify(execFile);
/** PostgreSQL (and PgBouncer) refuse to run as root: as root, their tools run as the `postgres` user. */
export const AS_ROOT = process.getuid?.() === 0;

/** A free TCP port on 127.0.0.1 (the OS picks it; it is released at once for the server to take). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL cluster of our own. */
export interface OwnPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>`. */
  url(database: string): string;
  /** Stops it (fast shutdown: open connections are cut), waits `downMs`, starts it again. */
  blip(downMs: number): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A new temporary folder named `<prefix><random>` that the user the PostgreSQL tools run as (see {@link AS_ROOT}) may
 * write in.
 */
export async function postgresTempDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (AS_ROOT)
    chownSync(
      dir,
      Number((await run("id", ["-u", "postgres"])).stdout.trim()),
      Number((await run("id", ["-g", "postgres"])).stdout.trim()),
    );
  return dir;
}

/** Runs a PostgreSQL tool, as `postgres` when we are root. */
async function pgTool(tool: string, args: string[]): Promise<void> {
  const [command, commandArgs] = AS_ROOT ? ["runuser", ["-u", "postgres", "--", tool, ...args]] : [tool, args];
  await run(command, commandArgs, { timeout: 60_000 });
}

/**
 * `initdb` into a temporary folder and start the server on a free port, tuned for speed (no fsync, no full-page
 * writes), unless `durable`.
 * @param options.durable - PostgreSQL's own defaults for durability (fsync, synchronous commit, full-page writes), for
 *   benches that measure what a deployed server writes (WAL bytes)
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<OwnPostgres> {
  const dir = await postgresTempDir("lm-chaos-pg-");
  const data = path.join(dir, "data");
  const port = await freePort();
  await pgTool("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const speed = options.durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`;
  const start = () => pgTool("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", settings, "-w", "start"]);
  const stop = (mode: "fast" | "immediate") => pgTool("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
  await start();
  return {
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async blip(downMs) {
      await stop("fast");
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async destroy() {
      await stop("immediate").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis server of our own. */
export interface OwnRedis {
  url: string;
  destroy(): Promise<void>;
}

/** `redis-server` on a free port, without persistence, with `args` added; resolves once it accepts connections. */
async function spawnRedis(args: string[] = []): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  return { port, child };
}

/** `redis-server` on a free port, without persistence. */
export async function startRedis(): Promise<OwnRedis> {
  const { port, child } = await spawnRedis();
  child.once("exit", (code, signal) => process.stderr.write(`redis-server exited (${code ?? signal})\n`));
  return {
    url: `redis://127.0.0.1:${port}`,
    async destroy() {
      child.kill("SIGKILL");
    },
  };
}

/** A Redis Cluster of our own. */
export interface OwnRedisCluster {
  /** `redis://127.0.0.1:<port>` of each primary, as `REDIS_CLUSTER_NODES` takes them. */
  nodes: string[];
  destroy(): Promise<void>;
}

/**
 * A Redis Cluster of `primaries` cluster-mode `redis-server`s on free ports (no replicas, no persistence, their
 * cluster state in a temporary folder), joined with `redis-cli --cluster create`; resolves once every node reports
 * `cluster_state:ok`, i.e. every hash slot is served.
 */
export async function startRedisCluster(primaries = 3): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "lm-redis-cluster-"));
  const servers: ChildProcess[] = [];
  const destroy = async () => {
    for (const server of servers) server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < primaries; i++) {
      const { port, child } = await spawnRedis([
        "--cluster-enabled",
        "yes",
        "--dir",
        dir,
        "--cluster-config-file",
        `nodes-${i}.conf`,
      ]);
      servers.push(child);
      ports.push(port);
    }
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run("redis-cli", ["--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"], {
      timeout: 30_000,
    });
    const ready = async (port: number) =>
      (await run("redis-cli", ["-p", String(port), "cluster", "info"])).stdout.includes("cluster_state:ok");
    await waitUntil(
      "every Redis Cluster node to report cluster_state:ok",
      async () => (await Promise.all(ports.map(ready))).every(Boolean),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    return { nodes: ports.map((port) => `redis://127.0.0.1:${port}`), destroy };
  } catch (err) {
    await destroy();
    throw err;
  }
}
