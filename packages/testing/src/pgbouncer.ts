/**
 * PgBouncer in transaction pooling mode on a free loopback port, in front of a PostgreSQL server, for the tests and the
 * bench that run the service through a pooler (DESIGN §10 "PostgreSQL through a pooler"). Debian's package (1.18)
 * tracks no prepared statement, and `max_prepared_statements` is left unset so that a newer one behaves the same: a
 * statement prepared by name on one server connection is unknown on the others.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AS_ROOT, freePort, postgresTempDir } from "./own-infrastructure";

/** A running PgBouncer of our own. */
export interface OwnPgBouncer {
  /** Its port on 127.0.0.1. */
  port: number;
  /** PgBouncer's own process id (for its CPU time). */
  pid: number;
  /** `postgresql://<user>@127.0.0.1:<port>/<database>`: `database` on the server, through the pooler. */
  url(database: string): string;
  /** Stops it (SIGTERM: open client connections are cut) and removes its folder. */
  stop(): Promise<void>;
}

/** Where {@link startPgBouncer} sends its connections, and how many it keeps. */
export interface PgBouncerOptions {
  /**
   * Any connection string of the PostgreSQL server (`postgresql://user[:password]@host:port/...`): its host, port,
   * user and password are used, its database is not (every database is served under its own name).
   */
  serverUrl: string;
  /**
   * Server connections per database and user (`default_pool_size`, default 5): fewer than the clients' connections,
   * so that clients take turns on them as they do in production.
   */
  poolSize?: number;
}

/** Debian's binary (outside the PATH of users other than root). */
const PGBOUNCER = "/usr/sbin/pgbouncer";

/** Longest PgBouncer may take to listen, ms. */
const START_TIMEOUT_MS = 10_000;

/** `value` quoted for a libpq-style `key=value` setting of PgBouncer's `[databases]` section. */
function connectionValue(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * Starts `pgbouncer` (as `postgres` when we are root: it refuses to run as root) with `pool_mode = transaction` and
 * `auth_type = trust` on a free port of 127.0.0.1, and resolves once it listens.
 * @throws Error when `serverUrl` is not a `postgres(ql)://` URL, when Debian's `pgbouncer` is not installed, or when
 *   PgBouncer exits or does not listen within 10 s (with its output)
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<OwnPgBouncer> {
  const server = URL.canParse(options.serverUrl) ? new URL(options.serverUrl) : undefined;
  if (!server || !/^postgres(ql)?:$/.test(server.protocol) || server.hostname === "") {
    throw new Error("startPgBouncer: serverUrl must be a postgresql://user@host:port/database URL");
  }
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`startPgBouncer: ${PGBOUNCER} is missing: apt-get install pgbouncer (as .ci/run does)`);
  }
  const poolSize = options.poolSize ?? 5;
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw new Error(`startPgBouncer: poolSize must be a positive integer, not ${poolSize}`);
  const user = decodeURIComponent(server.username) || "postgres";
  const password = decodeURIComponent(server.password);
  const target = [
    `host=${connectionValue(server.hostname.replace(/^\[|\]$/g, ""))}`,
    `port=${server.port || "5432"}`,
    `user=${connectionValue(user)}`,
    ...(password ? [`password=${connectionValue(password)}`] : []),
  ].join(" ");

  const dir = await postgresTempDir("lm-pgbouncer-");
  const port = await freePort();
  const config = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "users.txt"), `"${user.replace(/"/g, '""')}" ""\n`);
  writeFileSync(
    config,
    [
      "[databases]",
      `* = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 1000",
      "log_connections = 0",
      "log_disconnections = 0",
      // The pg driver sends none of the others; Prisma's adapter is the pg driver.
      "ignore_startup_parameters = extra_float_digits",
      "",
    ].join("\n"),
  );
  const [command, args] = AS_ROOT ? ["runuser", ["-u", "postgres", "--", PGBOUNCER, config]] : [PGBOUNCER, [config]];
  const child: ChildProcess = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  // PgBouncer's own process id, from its log: as root the child is `runuser`, which would forward a signal to it
  // only to wait 2 s and kill it.
  let pid: number;
  try {
    pid = await new Promise<number>((resolve, reject) => {
      let output = "";
      let listening = false;
      const timer = setTimeout(
        () => reject(new Error(`pgbouncer did not listen within ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      // Read to the end, or PgBouncer would block on a full pipe once it has logged enough.
      const read = (chunk: Buffer) => {
        if (listening) return;
        output += chunk.toString();
        const line = new RegExp(`\\[(\\d+)\\] LOG listening on 127\\.0\\.0\\.1:${port}\\b`).exec(output);
        listening = line !== null;
        if (line) {
          clearTimeout(timer);
          resolve(Number(line[1]));
        }
      };
      child.stdout?.on("data", read);
      child.stderr?.on("data", read);
      child.once("error", (err) => reject(new Error(`pgbouncer could not be started (${err.message})`)));
      child.once("exit", (code, signal) => reject(new Error(`pgbouncer exited (${code ?? signal}):\n${output}`)));
    });
  } catch (err) {
    child.kill("SIGKILL");
    remove();
    throw err;
  }
  return {
    port,
    pid,
    url: (database) => `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // PgBouncer exits at once on SIGTERM, and so then does runuser.
        process.kill(pid, "SIGTERM");
        await exited;
      }
      remove();
    },
  };
}
