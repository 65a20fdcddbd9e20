/**
 * Live mode for a test file: the emulator of the Central Bank's API Pix standard (packages/bank-emulator), configured
 * as bank acquirer `live-bank` (profile `efi`, so it also sends payouts) and activated for live mode, so that live
 * charges register at a bank as in production (DESIGN §9). Its notifications reach no API (it has no webhook URL)
 * unless a test registers one.
 */
import { startBankEmulator, type BankEmulator } from "@lm/bank-emulator";
import { activateAcquirer, configureBankAcquirer } from "@lm/domain";
import type { ApiTestContext } from "./harness";

/**
 * How long starting the emulator may take: it makes its CA and certificates with `openssl` (a few processes), which a
 * busy machine can slow past Jest's 5 s for a hook.
 */
const START_TIMEOUT_MS = 30_000;

/** The slug of the bank {@link useLiveBank} activates. */
export const LIVE_BANK_SLUG = "live-bank";

/**
 * Registers `beforeAll`/`afterAll` that start the emulator and make it `ctx`'s live acquirer (call after the harness,
 * whose `beforeAll` must run first), and stop it.
 * @returns a holder of the running emulator
 */
export function useLiveBank(ctx: ApiTestContext): { current: BankEmulator } {
  const holder = {} as { current: BankEmulator };
  beforeAll(async () => {
    const bank = await startBankEmulator({ settleDelayMs: 10 });
    holder.current = bank;
    await configureBankAcquirer(ctx.deps, {
      slug: LIVE_BANK_SLUG,
      profile: "efi",
      apiUrl: bank.apiUrl,
      tokenUrl: bank.tokenUrl,
      clientId: bank.client.clientId,
      credentials: {
        clientSecret: bank.client.clientSecret,
        certPem: bank.client.certPem,
        keyPem: bank.client.keyPem,
        caPem: bank.client.caPem,
      },
      pixKey: bank.pixKey,
    });
    await activateAcquirer(ctx.deps, LIVE_BANK_SLUG, "live");
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}
