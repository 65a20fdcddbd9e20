/**
 * `npm run dev:bank`: the bank emulator for a person, on fixed ports with its certificates kept under `var/bank/`
 * (reused on the next start, so a configured acquirer keeps working). Prints the operators' CLI command that
 * configures it as an acquirer, and the control API. Stays up until Ctrl-C.
 *
 * Environment: `BANK_API_PORT` (default 8443), `BANK_CONTROL_PORT` (8444), `BANK_DIR` (`var/bank`), `BANK_PIX_KEY`
 * (the emulator's fixed EVP key), `BANK_SETTLE_DELAY_MS` (2000: long enough to see a devolução or payout in
 * EM_PROCESSAMENTO).
 */
import { resolve } from "node:path";
import { startBankEmulator, type BankEmulator } from "./index";

/** The acquirer slug the printed commands use. */
const SLUG = "bank-emulator";

function portFrom(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number`);
  return value;
}

function instructions(bank: BankEmulator, dir: string): string {
  const { files } = bank.client;
  const configure = [
    `npm run ops -- acquirer:configure ${SLUG} --profile efi`,
    `--api-url ${bank.apiUrl} --token-url ${bank.tokenUrl}`,
    `--client-id ${bank.client.clientId} --client-secret-file ${files.clientSecret}`,
    `--cert-file ${files.cert} --key-file ${files.key} --ca-file ${files.ca}`,
    `--pix-key ${bank.pixKey} --account 0001/1234567 --account-type checking`,
  ].join(" \\\n    ");
  const control = bank.controlUrl;
  return [
    "Bank emulator (API Pix standard, release 2.x, and Efí payouts)",
    `  API       ${bank.apiUrl}   (mutual TLS; token at ${bank.tokenUrl})`,
    `  control   ${control}   (plain HTTP, this machine only)`,
    `  pix key   ${bank.pixKey}`,
    `  files     ${dir}   (CA, client certificate, key, PKCS#12, client secret)`,
    "",
    "Configure it as an acquirer (profile bcb works too, without payouts), register its webhook and activate it for",
    "live mode (an acquirer serves one mode for good; a bank activated for test takes test charges from the sandbox):",
    `  ${configure}`,
    `  npm run ops -- acquirer:register-webhook ${SLUG}`,
    `  npm run ops -- acquirer:activate ${SLUG} --mode live`,
    "",
    "Control API (amounts in centavos):",
    `  curl -X POST ${control}/charges/<txid>/pay -d '{"amount": 1234, "callback": "send"}'   (both optional)`,
    `  curl -X POST ${control}/forge -d '{"txid": "<txid>", "amount": 1234}'`,
    `  curl -X POST ${control}/pix/<endToEndId>/med -d '{"amount": 500}'`,
    "Pix Automático, the payer's bank (`GET /recurrences` lists the recurrences with their idRec):",
    `  curl -X POST ${control}/recurrences/<idRec>/approve   (or /reject, or /cancel for the payer's cancel)`,
    `  curl -X POST ${control}/cycles/<txid>/pay             (or /fail: the merchant's side asks for the retry)`,
    "",
    "Ctrl-C stops it.",
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const dir = resolve(process.env.BANK_DIR ?? "var/bank");
  const bank = await startBankEmulator({
    port: portFrom("BANK_API_PORT", 8443),
    controlPort: portFrom("BANK_CONTROL_PORT", 8444),
    dir,
    pixKey: process.env.BANK_PIX_KEY,
    settleDelayMs: Number(process.env.BANK_SETTLE_DELAY_MS ?? 2000),
  });
  process.stdout.write(instructions(bank, dir));
  const stop = (): void => {
    void bank.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bank emulator failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
