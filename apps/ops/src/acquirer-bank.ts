/**
 * The bank acquirer commands (DESIGN §9 "Configuration", "Reconciliation"): `acquirer:configure`,
 * `acquirer:activate`, `acquirer:check`, `acquirer:register-webhook` and `acquirer:reconcile`. Secrets are read from
 * files (never from the command line, where shells and process lists keep them), stored encrypted, and never printed.
 */
import { readFile } from "node:fs/promises";
import {
  activateAcquirer,
  checkBankAcquirer,
  configureBankAcquirer,
  reconcileAcquirerBySlug,
  registerBankWebhook,
  validationFailed,
  type BankCredentials,
} from "@lm/domain";
import { createPixApiClient } from "@lm/pix-api";
import { requiredOption, requiredPositional, type Command, type CommandContext } from "./command";

/** The contents of the file option `name` names, or undefined when the option is absent. */
async function fileOption(ctx: CommandContext, name: string): Promise<Buffer | undefined> {
  const path = ctx.options[name];
  if (path === undefined) return undefined;
  if (typeof path !== "string" || path === "") throw validationFailed(`--${name} needs a path.`, name);
  try {
    return await readFile(path);
  } catch {
    throw validationFailed(`--${name}: cannot read ${path}.`, name);
  }
}

/** `{[key]: value}` of string option `name` when given, else `{}`. */
function stringOption<K extends string>(ctx: CommandContext, name: string, key: K): Partial<Record<K, string>> {
  const value = ctx.options[name];
  if (value === undefined) return {};
  if (typeof value !== "string" || value === "") throw validationFailed(`--${name} needs a value.`, name);
  return { [key]: value } as Partial<Record<K, string>>;
}

/** Stores a bank's API Pix connection, its secrets encrypted, and the receiving account Pix Automático names. */
export const acquirerConfigure: Command = {
  usage:
    "acquirer:configure <slug> --profile bcb|efi --api-url <url> --token-url <url> --client-id <id> " +
    "--client-secret-file <path> (--cert-file <path> --key-file <path> | --pfx-file <path>) [--ca-file <path>] " +
    "--pix-key <chave> [--account <branch>/<number> --account-type checking|savings|payment]",
  options: [
    "profile",
    "api-url",
    "token-url",
    "client-id",
    "client-secret-file",
    "cert-file",
    "key-file",
    "pfx-file",
    "ca-file",
    "pix-key",
    "account",
    "account-type",
  ],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const secret = await fileOption(ctx, "client-secret-file");
    if (secret === undefined) throw validationFailed("--client-secret-file is required.", "client-secret-file");
    const [cert, key, pfx, ca] = await Promise.all(
      ["cert-file", "key-file", "pfx-file", "ca-file"].map((name) => fileOption(ctx, name)),
    );
    const credentials: BankCredentials = {
      clientSecret: secret.toString("utf8").trim(),
      ...(cert === undefined ? {} : { certPem: cert.toString("utf8") }),
      ...(key === undefined ? {} : { keyPem: key.toString("utf8") }),
      ...(pfx === undefined ? {} : { pfxBase64: pfx.toString("base64") }),
      ...(ca === undefined ? {} : { caPem: ca.toString("utf8") }),
    };
    const acquirer = await configureBankAcquirer(ctx, {
      slug,
      profile: requiredOption(ctx, "profile"),
      apiUrl: requiredOption(ctx, "api-url"),
      tokenUrl: requiredOption(ctx, "token-url"),
      clientId: requiredOption(ctx, "client-id"),
      pixKey: requiredOption(ctx, "pix-key"),
      ...stringOption(ctx, "account", "account"),
      ...stringOption(ctx, "account-type", "accountType"),
      credentials,
    });
    return {
      text:
        `Configured acquirer ${acquirer.slug} (${acquirer.profile}) at ${acquirer.api_url}; its secrets are stored ` +
        `encrypted. Next: acquirer:check ${slug}, acquirer:register-webhook ${slug}, acquirer:activate ${slug} --mode live.`,
      json: { id: acquirer.id, slug: acquirer.slug, profile: acquirer.profile, api_url: acquirer.api_url },
    };
  },
};

/** Makes a configured bank the acquirer of a mode. */
export const acquirerActivate: Command = {
  usage: "acquirer:activate <slug> --mode live|test",
  options: ["mode"],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const mode = requiredOption(ctx, "mode");
    if (mode !== "live" && mode !== "test") throw validationFailed("--mode must be live or test.", "mode");
    await activateAcquirer({ repos: ctx.repos, now: () => ctx.now }, slug, mode);
    return {
      text: `Acquirer ${slug} now registers ${mode} charges and moves ${mode} money (every process within seconds).`,
      json: { slug, mode },
    };
  },
};

/** Gets a token and reads the bank's webhook registration. */
export const acquirerCheck: Command = {
  usage: "acquirer:check <slug>",
  options: [],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const { webhookUrl } = await checkBankAcquirer(bankDeps(ctx), slug);
    return {
      text: `Acquirer ${slug}: token and mutual TLS work; webhook ${webhookUrl ?? "not registered"}.`,
      json: { slug, ok: true, webhook_url: webhookUrl },
    };
  },
};

/** Registers our notification URL at the bank. */
export const acquirerRegisterWebhook: Command = {
  usage: "acquirer:register-webhook <slug>",
  options: [],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const url = await registerBankWebhook(bankDeps(ctx), slug);
    return {
      text: `Acquirer ${slug} now posts notifications to ${url}/pix (and Pix Automático's to /rec and /cobr).`,
      json: { slug, webhook_url: url },
    };
  },
};

/** Reconciles a bank by hand. */
export const acquirerReconcile: Command = {
  usage: "acquirer:reconcile <slug> [--since <ISO time>]",
  options: ["since"],
  async run(ctx) {
    const slug = requiredPositional(ctx, 0, "slug");
    const sinceOption = ctx.options.since;
    const since = typeof sinceOption === "string" ? new Date(sinceOption) : undefined;
    if (since !== undefined && Number.isNaN(since.getTime())) {
      throw validationFailed("--since must be an ISO 8601 time.", "since");
    }
    const report = await reconcileAcquirerBySlug(ctx.useCaseDeps(), slug, since);
    return {
      text:
        `Acquirer ${slug}: ${report.listed} payments listed from ${report.from.toISOString()} to ` +
        `${report.to.toISOString()}, ${report.stored} never received before; ${report.readBack} refunds and payouts ` +
        `read back, ${report.settledFound} outcomes found. What was found is being processed.`,
      json: {
        slug,
        from: report.from.toISOString(),
        to: report.to.toISOString(),
        listed: report.listed,
        stored: report.stored,
        read_back: report.readBack,
        outcomes_found: report.settledFound,
      },
    };
  },
};

/** What a command needs to reach a bank: the repositories, the configuration and `@lm/pix-api`'s API Pix client. */
function bankDeps(ctx: CommandContext) {
  return { repos: ctx.repos, config: ctx.config, connectBank: createPixApiClient };
}
