/**
 * A program a test runs as its own process (the service's bundles, the `lm` command line, a README's shell commands, a
 * guide's receiver), with what it prints kept for the test to wait on and assert.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { waitUntil } from "./wait-until";

/** A started process and what it printed so far. */
export interface WatchedProcess {
  child: ChildProcess;
  /** Standard output and standard error together, as text, in arrival order. */
  output(): string;
  /** The complete lines of standard output alone. */
  stdoutLines(): string[];
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /**
   * Resolves with the first match of `pattern` in {@link output}.
   * @throws Error quoting the output, once `timeoutMs` (default 20 000) passed, or once the output was closed without
   *   a match (the process and every child that shares its output are gone)
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/**
 * Starts `command` with `args`, its standard input closed and both outputs kept.
 * @param options.env - the whole environment of the process (merge `process.env` in to keep it)
 * @param options.detached - its own process group, so that `process.kill(-pid)` also ends what it started
 */
export function startWatchedProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
): WatchedProcess {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let stdout = "";
  let closed = false;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.once("close", () => (closed = true));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    child,
    output: () => output,
    stdoutLines: () => stdout.split("\n").slice(0, -1),
    exited,
    async waitFor(pattern, timeoutMs = 20_000) {
      try {
        return await waitUntil(
          `${command} to print ${pattern}`,
          () => {
            const match = pattern.exec(output);
            if (match === null && closed) throw new Error(`${command} closed its output without printing ${pattern}`);
            return match;
          },
          { timeoutMs, intervalMs: 50 },
        );
      } catch (err) {
        throw new Error(`${(err as Error).message}; it printed:\n${output}`, { cause: err });
      }
    },
  };
}
