/**
 * The bank of `npm run bench:api`'s live phase, as its own process: the emulator of the Central Bank's API Pix
 * standard (packages/bank-emulator) over mutual TLS, so that its TLS and JSON work falls on its own process and not on
 * the bench's load generator. `node --import tsx bench/bank-server.ts` prints on stdout the line `config <JSON>`, the
 * emulator's configuration (`{apiUrl, tokenUrl, pixKey, client: {clientId, clientSecret, certPem, keyPem, caPem}}`),
 * then answers commands read from stdin, one a line, each with the line `reply <n> <JSON>` (n: the command's number
 * from 1):
 *
 * - `latency <ms>`: every later reply of the bank comes `ms` late (the request acted on at once) → `{latency_ms}`;
 * - `report`: what the bank received → `{requests, cob_puts, tokens, violations}` (`violations`: the requests that
 *   broke the standard's schemas, with their errors).
 *
 * Its log lines (JSON on stdout, `LOG_LEVEL` warn unless set) are the other lines, which {@link startBankProcess} passes
 * to its own stderr. SIGTERM or the end of stdin closes it. {@link startBankProcess} starts it and speaks this protocol.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { startBankEmulator } from "@lm/bank-emulator";
import { REPO_ROOT } from "@lm/testing";

/** The first line the process prints: what `configureBankAcquirer` needs. */
export interface BankConfig {
  apiUrl: string;
  tokenUrl: string;
  pixKey: string;
  client: { clientId: string; clientSecret: string; certPem: string; keyPem: string; caPem: string };
}

/** What the bank received so far (the reply to `report`). */
export interface BankReport {
  requests: number;
  /** `PUT /v2/cob/{txid}`: charge registrations. */
  cob_puts: number;
  tokens: number;
  violations: Array<{ method: string; path: string; schemaErrors: string[] }>;
}

/** A running bank process and its commands. */
export interface BankProcess {
  child: ChildProcess;
  config: BankConfig;
  setLatency(ms: number): Promise<void>;
  report(): Promise<BankReport>;
}

async function main(): Promise<void> {
  const bank = await startBankEmulator({ latencyMs: 0 });
  const { clientId, clientSecret, certPem, keyPem, caPem } = bank.client;
  const config: BankConfig = {
    apiUrl: bank.apiUrl,
    tokenUrl: bank.tokenUrl,
    pixKey: bank.pixKey,
    client: { clientId, clientSecret, certPem, keyPem, caPem },
  };
  process.stdout.write(`config ${JSON.stringify(config)}\n`);
  const stop = (): void => {
    void bank.close().then(() => process.exit(0));
  };
  let n = 0;
  const commands = createInterface({ input: process.stdin });
  // The end of stdin is the bench gone, whatever way it ended.
  commands.once("close", stop);
  commands.on("line", (line) => {
    n++;
    const [command, argument] = line.trim().split(/\s+/);
    let reply: unknown;
    if (command === "latency") {
      bank.setLatency(Number(argument));
      reply = { latency_ms: Number(argument) };
    } else if (command === "report") {
      const requests = bank.requests();
      reply = {
        requests: requests.length,
        cob_puts: requests.filter((r) => r.method === "PUT" && r.path.startsWith("/v2/cob/")).length,
        tokens: bank.tokensIssued(),
        violations: bank.violations(),
      } satisfies BankReport;
    } else {
      reply = { error: `unknown command ${line}` };
    }
    process.stdout.write(`reply ${n} ${JSON.stringify(reply)}\n`);
  });
  process.once("SIGTERM", stop);
}

/**
 * Starts this file as its own process (`node --import tsx`) and waits for its configuration; its log lines go to this
 * process's stderr. The caller stops `child` at the end.
 */
export async function startBankProcess(): Promise<BankProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/bank-server.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  const waiting: Array<(line: string) => void> = [];
  const early: string[] = [];
  lines.on("line", (line) => {
    if (!/^(config|reply) /.test(line)) {
      process.stderr.write(`bank: ${line}\n`);
      return;
    }
    const next = waiting.shift();
    if (next) next(line);
    else early.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const line = early.shift();
      if (line !== undefined) return resolve(line);
      const onExit = (code: number | null) => reject(new Error(`bank process exited (${code})`));
      child.once("exit", onExit);
      waiting.push((received) => {
        child.off("exit", onExit);
        resolve(received);
      });
    });
  const config = JSON.parse((await nextLine()).slice("config ".length)) as BankConfig;
  let sent = 0;
  // Commands are answered in order, one line each: the n-th reply line answers the n-th command.
  const command = async (line: string): Promise<unknown> => {
    const n = ++sent;
    const reply = nextLine();
    child.stdin?.write(`${line}\n`);
    const text = await reply;
    const match = /^reply (\d+) (.*)$/.exec(text);
    if (match?.[1] !== String(n)) throw new Error(`bank process answered ${JSON.stringify(text)} to command ${n}`);
    const answer = JSON.parse(match[2] ?? "null") as { error?: string };
    if (answer.error !== undefined) throw new Error(`bank process: ${answer.error}`);
    return answer;
  };
  return {
    child,
    config,
    setLatency: async (ms) => {
      await command(`latency ${ms}`);
    },
    report: async () => (await command("report")) as BankReport,
  };
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`bank process failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
