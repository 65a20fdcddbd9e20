/**
 * Parses an operator's command line and runs the command. Separated from `main.ts` so tests drive it in-process.
 */
import { parseArgs } from "node:util";
import type { Config } from "@lm/config";
import type { Repositories } from "@lm/db";
import { ApiError, type UseCaseDeps } from "@lm/domain";
import { COMMANDS } from "./commands";

/** What the command printed and the exit code it asks for. */
export interface RunOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function usage(): string {
  return ["Usage: npm run ops -- <command> [options] [--json]", "", "Commands:"]
    .concat(Object.values(COMMANDS).map((c) => `  ${c.usage}`))
    .join("\n");
}

/**
 * Runs `argv` (without `node` and the script), e.g. `["seller:create", "--name", "Loja", "--document", "..."]`.
 * Bad arguments and refused operations give exit code 2 with a one-line reason; success gives 0.
 */
export async function runOps(
  argv: string[],
  deps: { config: Config; repos: Repositories; now: () => Date; useCaseDeps?: () => UseCaseDeps },
): Promise<RunOutcome> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help") return { exitCode: 0, stdout: `${usage()}\n`, stderr: "" };
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    const problem = name === undefined ? "No command given." : `Unknown command: ${name}.`;
    return { exitCode: 2, stdout: "", stderr: `${problem}\n\n${usage()}\n` };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries([
        ["json", { type: "boolean" as const }],
        ...command.options.map((o) => [o, { type: "string" as const }]),
      ]),
    });
  } catch (err) {
    return { exitCode: 2, stdout: "", stderr: `${(err as Error).message}\nUsage: npm run ops -- ${command.usage}\n` };
  }
  const json = parsed.values.json === true;
  try {
    const result = await command.run({
      config: deps.config,
      repos: deps.repos,
      options: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
      now: deps.now(),
      useCaseDeps() {
        if (deps.useCaseDeps === undefined) throw new Error("this command needs Redis, which was not given");
        return deps.useCaseDeps();
      },
    });
    return { exitCode: 0, stdout: `${json ? JSON.stringify(result.json) : result.text}\n`, stderr: "" };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const stderr = json
      ? `${JSON.stringify({ error: { code: err.code, message: err.message, param: err.param } })}\n`
      : `Error: ${err.message}\nUsage: npm run ops -- ${command.usage}\n`;
    return { exitCode: 2, stdout: "", stderr };
  }
}
