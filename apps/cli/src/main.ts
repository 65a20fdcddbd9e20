/**
 * `lm`, the integrator's command line (DESIGN §12): `lm listen` forwards the store's test-mode events to a local
 * receiver, signed as the worker signs them; `lm trigger <event type>` makes the service emit one; `lm mcp` serves the
 * merchant API's operations as Model Context Protocol tools to an assistant (DESIGN §17). It talks to the service
 * through the public merchant API only, with an API key (a test key, but for `lm mcp`); the service's address is
 * `--api-url`, else `LM_API_URL`, else `http://localhost:3000`.
 */
import { parseArgs } from "node:util";
import { apiKeyMode } from "@lm/domain/src/api-keys/api-key";
import { isSecretScheme, SECRET_SCHEMES } from "@lm/domain/src/webhooks/signature";
import { listenSecret, startListening } from "./listen";
import { runMcp } from "./mcp";
import { failureLine, merchantApi, replyOf } from "./merchant-api";
import { isTriggerable, trigger, TRIGGERS } from "./trigger";

const USAGE = `Usage:
  lm listen --forward-to <url> [--events <type,type,…>] [--signature-scheme stripe|standard_webhooks]
  lm listen --print-secret [--signature-scheme …]
  lm trigger <event type> [--late-days <n>]
  lm mcp [--allow-live-writes]

Every command takes --api-key <sk_test_…> (or LM_API_KEY) and --api-url <url> (or LM_API_URL; default
http://localhost:3000). listen and trigger refuse live keys: they work on test mode only.

lm listen     forwards the test-mode events created from now on (and in the 10 s before it started, so that
              nothing fired while it starts is missed), each signed with the session's secret exactly
              as the service signs webhooks, so your receiver's verification code is the production code.
              --print-secret prints that secret (the same on every run with a key) and exits.
lm trigger    ${Object.entries(TRIGGERS)
  .map(([type, what]) => `${type}: ${what}`)
  .join("\n              ")}
lm mcp        serves the merchant API to an assistant as Model Context Protocol tools over stdio, one per
              merchant operation of the API's OpenAPI document; the test-mode helpers (simulate…, test
              withdrawals) only with a test key; a live key gets only the tools that read, unless
              --allow-live-writes is given.
`;

/** What `lm` writes and reads besides its arguments. */
interface Io {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Resolves when the user asks to stop (Ctrl-C). */
  interrupted: Promise<void>;
}

/** Exit statuses: 0 done, 1 failed, 2 bad usage. */
type ExitCode = 0 | 1 | 2;

/**
 * Runs one `lm` command.
 * @param argv - the arguments after `lm`
 * @returns the exit status; errors are written to `io.err`, never thrown
 */
export async function runLm(argv: string[], io: Io): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "api-key": { type: "string" },
        "api-url": { type: "string" },
        "forward-to": { type: "string" },
        events: { type: "string" },
        "signature-scheme": { type: "string" },
        "print-secret": { type: "boolean" },
        "late-days": { type: "string" },
        "allow-live-writes": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") {
    io.out(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const apiKey = values["api-key"] ?? io.env.LM_API_KEY;
  if (apiKey === undefined) return usage(io, "Give the API key with --api-key sk_test_… (or LM_API_KEY).");
  const apiUrl = values["api-url"] ?? io.env.LM_API_URL ?? "http://localhost:3000";
  if (command === "mcp") {
    const mode = apiKeyMode(apiKey);
    if (mode === null) return usage(io, "That is not an API key: give a test or live key (sk_test_… or sk_live_…).");
    const access = { mode, allowLiveWrites: values["allow-live-writes"] === true };
    try {
      await runMcp({ apiUrl, apiKey, access, log: io.err, interrupted: io.interrupted });
      return 0;
    } catch (err) {
      io.err(failureLine(err, apiUrl));
      return 1;
    }
  }
  if (!apiKey.startsWith("sk_test_")) {
    io.err("lm works on test mode only: give a test key (sk_test_…), never a live one.");
    return 2;
  }
  const api = merchantApi(apiUrl, apiKey);

  try {
    if (command === "trigger") {
      const [type] = rest;
      if (type === undefined || rest.length !== 1 || !isTriggerable(type)) {
        return usage(io, `lm trigger takes one of: ${Object.keys(TRIGGERS).join(", ")}.`);
      }
      const lateDays = values["late-days"] === undefined ? undefined : Number(values["late-days"]);
      if (
        lateDays !== undefined &&
        (type !== "transaction.paid" || !Number.isInteger(lateDays) || lateDays < 1 || lateDays > 30)
      ) {
        return usage(io, "--late-days takes a whole number of days from 1 to 30, with transaction.paid only.");
      }
      await trigger(api, type, io.out, { lateDays });
      return 0;
    }
    if (command === "listen") {
      const scheme = values["signature-scheme"] ?? "stripe";
      if (!isSecretScheme(scheme)) return usage(io, `--signature-scheme is one of ${SECRET_SCHEMES.join(", ")}.`);
      const secret = listenSecret(apiKey, scheme);
      if (values["print-secret"]) {
        io.out(secret);
        return 0;
      }
      const forwardTo = values["forward-to"];
      if (forwardTo === undefined || !/^https?:\/\//.test(forwardTo)) {
        return usage(
          io,
          "Give the receiver's URL with --forward-to, e.g. --forward-to http://localhost:4000/webhooks.",
        );
      }
      const events = values.events === undefined ? null : values.events.split(",").map((type) => type.trim());
      // The events API names an unknown type, and the fix, better than a list kept here could.
      for (const type of events ?? []) await replyOf(api.GET("/v1/events", { params: { query: { type, limit: 1 } } }));
      const listener = await startListening({ api, forwardTo, events, scheme, secret, print: io.out });
      io.out(`Ready! Forwarding test-mode events to ${forwardTo}${events ? ` (${events.join(", ")})` : ""}.`);
      io.out(`Your webhook signing secret is ${secret} (${scheme} scheme). Ctrl-C to stop.`);
      await Promise.race([io.interrupted, listener.done]);
      await listener.stop();
      return 0;
    }
    return usage(io, `Unknown command "${command}".`);
  } catch (err) {
    io.err(failureLine(err, apiUrl));
    return 1;
  }
}

function usage(io: Io, problem: string): 2 {
  io.err(`${problem}\n\n${USAGE}`);
  return 2;
}

/** Runs `lm` with this process's arguments, environment and streams, then exits with its status. */
export function main(): void {
  const interrupted = new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  void runLm(process.argv.slice(2), {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    interrupted,
  }).then((code) => process.exit(code));
}
