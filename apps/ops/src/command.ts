/**
 * The shape of an operator command and the helpers every command uses to read its arguments.
 */
import type { Config } from "@lm/config";
import type { Repositories } from "@lm/db";
import { validationFailed, type UseCaseDeps } from "@lm/domain";

/** What a command gets: configuration, the repositories and its parsed arguments. */
export interface CommandContext {
  config: Config;
  repos: Repositories;
  /** `--name value` options. */
  options: Record<string, string | boolean | undefined>;
  /** Positional arguments after the command name. */
  positionals: string[];
  now: Date;
  /** What a use case that enqueues jobs needs (a Redis producer, made on first call). */
  useCaseDeps(): UseCaseDeps;
}

/** The outcome of a command: a line for people, and the object printed with `--json` (ids and one-time secrets). */
export interface CommandResult {
  text: string;
  json: Record<string, unknown>;
}

/** An operator command. */
export interface Command {
  /** `seller:create --name <legal name> --document <CPF or CNPJ>`, shown in the usage text. */
  usage: string;
  /** Option names with values, besides `--json`. */
  options: string[];
  run(ctx: CommandContext): Promise<CommandResult>;
}

/**
 * The string value of option `name`.
 * @throws ApiError `validation_failed` naming the option when it is missing or empty
 */
export function requiredOption(ctx: CommandContext, name: string): string {
  const value = ctx.options[name];
  if (typeof value !== "string" || value.trim() === "") throw validationFailed(`--${name} is required.`, name);
  return value;
}

/**
 * Positional argument `index`, which must be one of `allowed` when given.
 * @throws ApiError `validation_failed` when it is missing or not allowed
 */
export function requiredPositional<T extends string>(
  ctx: CommandContext,
  index: number,
  label: string,
  allowed?: readonly T[],
): T {
  const value = ctx.positionals[index];
  if (value === undefined || value === "") throw validationFailed(`${label} is required.`, label);
  if (allowed && !allowed.includes(value as T)) {
    throw validationFailed(`${label} must be one of: ${allowed.join(", ")}.`, label);
  }
  return value as T;
}
