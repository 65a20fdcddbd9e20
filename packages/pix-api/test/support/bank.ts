/**
 * Test support: an emulated bank (`@lm/bank-emulator`) and a client of ours pointed at it with the bank's one
 * registered client's credentials.
 */
import { randomBytes } from "node:crypto";
import { startBankEmulator, type BankEmulator, type BankEmulatorOptions } from "@lm/bank-emulator";
import { createPixApiClient, type PixApiClient, type PixApiClientOptions, type PixApiCredentials } from "../../src";

/** The PEM credentials the emulator issued to its client. */
export function pemCredentials(bank: BankEmulator): PixApiCredentials {
  const { clientId, clientSecret, certPem, keyPem, caPem } = bank.client;
  return { clientId, clientSecret, certPem, keyPem, caPem };
}

/** A client of `bank` with its PEM credentials; `overrides` replace any option. */
export function clientOf(bank: BankEmulator, overrides: Partial<PixApiClientOptions> = {}): PixApiClient {
  return createPixApiClient({
    profile: "bcb",
    apiUrl: bank.apiUrl,
    tokenUrl: bank.tokenUrl,
    credentials: pemCredentials(bank),
    pixKey: bank.pixKey,
    ...overrides,
  });
}

/** Starts an emulated bank that settles devoluções and payouts quickly. */
export function startBank(options: BankEmulatorOptions = {}): Promise<BankEmulator> {
  return startBankEmulator({ settleDelayMs: 20, ...options });
}

/** A new txid within the standard's `[a-zA-Z0-9]{26,35}`: 32 hex characters. */
export function newTxid(): string {
  return randomBytes(16).toString("hex");
}

/** A new id for a devolução or a payout (`[a-zA-Z0-9]{1,35}`). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(8).toString("hex")}`;
}

/**
 * Registers the hooks of a test file that works against one emulated bank: the bank and a client of it (`options`
 * replace the client's), started before the file's tests and closed after them, and after every test the check that
 * nothing the client sent broke the standard's schemas.
 * @returns a holder filled before the first test
 */
export function useBank(options: Partial<PixApiClientOptions> = {}): { bank: BankEmulator; client: PixApiClient } {
  const held = {} as { bank: BankEmulator; client: PixApiClient };
  beforeAll(async () => {
    held.bank = await startBank();
    held.client = clientOf(held.bank, options);
  });
  afterEach(() => {
    expect(held.bank.violations()).toEqual([]);
  });
  afterAll(async () => {
    held.client?.close();
    await held.bank?.close();
  });
  return held;
}
