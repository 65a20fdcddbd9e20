/**
 * The README's quick start, run as written: its first block in one shell (`npm start`), every later block in a second
 * shell, from a database that does not exist yet to the line the Node.js receiver prints for a verified webhook.
 *
 * What the test adds to the commands is only their environment: a fresh database name in `DATABASE_URL` and its own
 * `QUEUE_PREFIX` and mail folder (the commands' defaults would share the machine's), and the line `npm ci` is left out
 * because the suite runs in the tree `npm ci` made (reinstalling `node_modules` under the running tests would break
 * them). The commands use ports 3000 and 4000, as a newcomer's machine has them free; the test says so if they are not.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import {
  REPO_ROOT,
  databaseUrl,
  deleteQueueKeys,
  startWatchedProcess,
  waitUntil,
  withAdminClient,
  type WatchedProcess,
} from "@lm/testing";

const SECTION = "## Quick start: from clone to a verified webhook";

/** The `sh` blocks of the README's quick start section, in order. */
function quickStartBlocks(): string[] {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const start = readme.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const end = readme.indexOf("\n## ", start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** A shell running `script` in its own process group (so that its background jobs can be stopped with it). */
function shell(script: string, env: Record<string, string>): WatchedProcess {
  return startWatchedProcess("bash", ["-e", "-c", script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    detached: true,
  });
}

/** Stops a shell's whole process group (the shell, `npm start`'s processes, background jobs). */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return; // the group is gone already
  }
  await waitUntil("the process group to exit", () => {
    try {
      process.kill(-child.pid!, 0);
      return false;
    } catch {
      return true;
    }
  }).catch(() => process.kill(-child.pid!, "SIGKILL"));
}

/** True when something accepts connections on 127.0.0.1:`port`. */
function portBusy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("README quick start", () => {
  const database = `lm_test_quickstart_${randomBytes(4).toString("hex")}`;
  const queuePrefix = `qs${randomBytes(4).toString("hex")}`;
  const shells: ChildProcess[] = [];
  let mailDir: string;

  beforeAll(async () => {
    mailDir = await mkdtemp(path.join(os.tmpdir(), "lm-quickstart-mail-"));
  });

  afterAll(async () => {
    for (const child of shells) await stopGroup(child);
    await withAdminClient((admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    await deleteQueueKeys(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", queuePrefix);
    await rm(mailDir, { recursive: true, force: true });
  });

  test("when a newcomer runs its commands as written on a fresh database, then the receiver prints a verified transaction.paid", async () => {
    const [serviceBlock, ...clientBlocks] = quickStartBlocks();
    expect(serviceBlock).toMatch(/^npm start$/m);
    expect(clientBlocks.length).toBeGreaterThan(0);
    for (const port of [3000, 4000]) {
      if (await portBusy(port)) throw new Error(`port ${port} is taken: the quick start's commands need it free`);
    }
    const env = {
      DATABASE_URL: databaseUrl(database),
      QUEUE_PREFIX: queuePrefix,
      MAIL_OUTBOX_DIR: mailDir,
      LM_API_KEY: "",
      WEBHOOK_SECRET: "",
    };

    const service = shell(serviceBlock!.replace(/^npm ci$/m, ""), env);
    shells.push(service.child);
    await service.waitFor(/worker consuming/, 180_000);
    await service.waitFor(/api listening/, 30_000);
    const client = shell(clientBlocks.join("\n"), env);
    shells.push(client.child);

    const [, paidEventId] = await client.waitFor(/verified transaction\.paid (evt_\w+)/, 120_000);
    expect(await client.exited).toBe(0);

    expect(client.output()).toMatch(/verified transaction\.created evt_\w+/);
    expect(client.output()).not.toMatch(/rejected/);
    const db = new Client({ connectionString: databaseUrl(database) });
    await db.connect();
    try {
      const { rows } = await db.query<{ type: string }>("SELECT type FROM events WHERE id = $1", [paidEventId]);
      expect(rows).toEqual([{ type: "transaction.paid" }]);
    } finally {
      await db.end();
    }
  }, 360_000);
});
