/**
 * Acquirers: payment providers that post inbound Pix notifications signed with their own secret (DESIGN §5
 * "Inbound and ops"). Secrets are stored encrypted (DESIGN §3). The `sandbox` acquirer exists in every installation:
 * it is created on first need, with a secret derived from `ENCRYPTION_KEY` so that every process derives the same one
 * and no operator step is needed. It settles test-mode charges only (see `processInboxItem`).
 */
import { createHmac } from "node:crypto";
import type { Config } from "@lm/config";
import { isUniqueViolation, type Acquirer, type Repositories } from "@lm/db";
import { ApiError, notFound, validationFailed } from "../errors";
import { newId } from "../ids";
import { decryptSecret, encryptSecret } from "../secret-box";
import { generateWebhookSecret } from "../webhooks/webhook-secret";

/** Slug of the built-in acquirer behind `simulate-payment`. */
export const SANDBOX_ACQUIRER_SLUG = "sandbox";

/** Lower-case letters, digits and inner hyphens, 2 to 40 characters (it appears in the notification URL). */
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/;

/** An acquirer and its notification secret in clear, for signing and verifying. */
export interface AcquirerWithSecret {
  acquirer: Acquirer;
  secret: string;
}

/** The sandbox acquirer's secret: an HMAC of a fixed label under `ENCRYPTION_KEY`, the same in every process. */
export function sandboxAcquirerSecret(encryptionKey: Buffer): string {
  return `whsec_${createHmac("sha256", encryptionKey).update("lm-pix sandbox acquirer").digest("base64url")}`;
}

/** Inserts acquirer `slug` with `secret` encrypted under its id; throws a unique violation when `slug` exists. */
async function insertAcquirerWithSecret(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
  slug: string,
  secret: string,
): Promise<Acquirer> {
  const id = newId("acquirer");
  return repos.acquirers.insertAcquirer({
    id,
    slug,
    secret_ciphertext: encryptSecret(config.encryptionKey, secret, id),
  });
}

/**
 * Registers acquirer `slug` with a fresh secret (ops command `acquirer:create`).
 * @returns the acquirer and its secret, to be shown once
 * @throws ApiError `validation_failed` (param `slug`) for a malformed slug; `invalid_state` when it exists
 */
export async function createAcquirer(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
  slug: string,
): Promise<AcquirerWithSecret> {
  if (!SLUG_PATTERN.test(slug)) {
    throw validationFailed("Slug must be 2 to 40 lower-case letters, digits or inner hyphens.", "slug");
  }
  const secret = slug === SANDBOX_ACQUIRER_SLUG ? sandboxAcquirerSecret(config.encryptionKey) : generateWebhookSecret();
  try {
    return { acquirer: await insertAcquirerWithSecret(repos, config, slug, secret), secret };
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError("invalid_state", `Acquirer ${slug} already exists.`, { param: "slug" });
    throw err;
  }
}

/**
 * Creates the sandbox acquirer unless it exists; safe to run from any number of processes at once.
 * @returns the sandbox acquirer
 */
export async function ensureSandboxAcquirer(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
): Promise<Acquirer> {
  const found = await repos.acquirers.findAcquirerBySlug(SANDBOX_ACQUIRER_SLUG);
  if (found) return found;
  try {
    return await insertAcquirerWithSecret(
      repos,
      config,
      SANDBOX_ACQUIRER_SLUG,
      sandboxAcquirerSecret(config.encryptionKey),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return repos.acquirers.findAcquirerBySlugOrThrow(SANDBOX_ACQUIRER_SLUG);
  }
}

/**
 * Acquirer `slug` with its secret decrypted; the sandbox acquirer is created on first need.
 * @throws ApiError `resource_not_found` for an unknown slug
 */
export async function loadAcquirer(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
  slug: string,
): Promise<AcquirerWithSecret> {
  const acquirer =
    slug === SANDBOX_ACQUIRER_SLUG
      ? await ensureSandboxAcquirer(repos, config)
      : await repos.acquirers.findAcquirerBySlug(slug);
  if (!acquirer) throw notFound("acquirer");
  return { acquirer, secret: decryptSecret(config.encryptionKey, acquirer.secret_ciphertext, acquirer.id) };
}

/** Acquirers with their secrets as this process last read them, per repositories ({@link knownAcquirer}). */
const knownAcquirers = new WeakMap<Repositories, Map<string, AcquirerWithSecret>>();

/**
 * Acquirer `slug` with its secret as this process last read it ({@link loadAcquirer} once, then kept): the receipt
 * of every inbound notification reads it, and must not pay a query and a decryption more each time. The
 * caller must write only while the row still has this `secret_ciphertext` (checked in its own statement) and, when it
 * has not (a row changed by hand), call {@link forgetAcquirer} and start again.
 * @throws ApiError `resource_not_found` for an unknown slug (never kept)
 */
export async function knownAcquirer(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
  slug: string,
): Promise<AcquirerWithSecret> {
  let known = knownAcquirers.get(repos);
  if (known === undefined) {
    known = new Map();
    knownAcquirers.set(repos, known);
  }
  const kept = known.get(slug);
  if (kept !== undefined) return kept;
  const loaded = await loadAcquirer(repos, config, slug);
  known.set(slug, loaded);
  return loaded;
}

/** Drops what {@link knownAcquirer} kept of acquirer `slug`, so that the next call reads the row again. */
export function forgetAcquirer(repos: Repositories, slug: string): void {
  knownAcquirers.get(repos)?.delete(slug);
}
