/**
 * An emulator of the Central Bank's "API Pix" standard (`bacen/pix-api` `openapi.yaml`, release 2.x), for tests and
 * for a person (`npm run dev:bank`): the subset our acquirer port uses (cob, cobv, lotecobv, pix, devolução,
 * webhook; Pix Automático's rec, locrec, solicrec, cobr, webhookrec, webhookcobr, with the payer's bank played on
 * request) and Efí's payout extension, over mutual TLS with its own test CA, OAuth2 client credentials (RFC 6749 §4.4), in-memory state, the
 * standard's callbacks, and switches for the failures a real bank shows. Every request is checked against JSON
 * Schemas written from the standard (schemas/).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@lm/logging";
import { startApiServer, type RecordedRequest } from "./api-server";
import { Bank } from "./bank";
import { CallbackPoster, type CallbackAttempt } from "./callbacks";
import { ensureCertificates } from "./certificates";
import { startControlServer } from "./control-server";
import { Faults } from "./faults";
import { createRouter } from "./routes";
import { BankState } from "./state";
import { TokenStore } from "./tokens";
import { chargeJson } from "./wire";
import type { CobR, Rec } from "@lm/pix-api";

export type { RecordedRequest } from "./api-server";
export type { CallbackAttempt } from "./callbacks";

/** The default receiving key: a fixed EVP (random key) UUID. */
export const DEFAULT_PIX_KEY = "7f6a2c1e-4b3d-4e8a-9c5f-2d1b0a9e8f74";

/** How long a callback post may take before the emulator gives up on it, ms. */
const CALLBACK_TIMEOUT_MS = 10_000;

/** Options of {@link startBankEmulator}. */
export interface BankEmulatorOptions {
  /** Listening port for the mTLS API (0 = a free port). */
  port?: number;
  /** Plain-HTTP loopback control port for a person (0 = free; undefined = no control server). */
  controlPort?: number;
  /** Folder for the generated CA, server and client certificates (default: a new temp folder). */
  dir?: string;
  /** The receiving Pix key of the account (default {@link DEFAULT_PIX_KEY}, an EVP UUID). */
  pixKey?: string;
  /** Delay before every API reply, ms (default 0). */
  latencyMs?: number;
  /** Token lifetime, seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** Delay before a devolução or payout settles and its callback is posted, ms (default 20). */
  settleDelayMs?: number;
}

/** A running emulator. */
export interface BankEmulator {
  /** Base of the standard's paths, e.g. `https://127.0.0.1:PORT/v2` (Efí style: payouts at origin + /v3/gn/...). */
  apiUrl: string;
  /** OAuth2 token endpoint, e.g. `https://127.0.0.1:PORT/oauth/token`. */
  tokenUrl: string;
  /** Plain-HTTP control base, when controlPort was given. */
  controlUrl: string | null;
  pixKey: string;
  /** Credentials of the one registered client, and the files they were written to (for the ops CLI). */
  client: {
    clientId: string;
    clientSecret: string;
    certPem: string;
    keyPem: string;
    caPem: string;
    /** PKCS#12 of the client's certificate and key (and the CA), without a passphrase. */
    pfx: Buffer;
    files: { clientSecret: string; cert: string; key: string; pfx: string; ca: string };
  };
  /** A client certificate and key signed by ANOTHER CA (the bank must refuse the TLS handshake). */
  foreignClient: { certPem: string; keyPem: string };
  /**
   * Pays charge `txid` as a payer's bank would: a Pix with a new end-to-end id, cob -> CONCLUIDA, and (unless
   * `callback: "drop"`) a standard callback POSTed to the registered webhookUrl + "/pix"; resolves once that post
   * was answered or failed. `force` pays a charge that is not ATIVA, is expired, or is unknown (then `amount` is
   * required). `amount` (centavos) defaults to the charge's, or for a due-date charge (`cobv`) to what its terms
   * come to on the day of payment, as the payer's bank computes it (reported in `componentesValor`); `date`
   * (`YYYY-MM-DD`, São Paulo) pays on a later day, e.g. after the due date.
   * @throws Error if the charge does not exist, is not ATIVA or is expired (unless `force: true`)
   */
  payCharge(
    txid: string,
    options?: {
      amount?: number;
      payer?: { name: string; cpf?: string; cnpj?: string };
      callback?: "send" | "drop";
      force?: boolean;
      date?: string;
    },
  ): Promise<{ endToEndId: string }>;
  /**
   * POSTs a forged standard callback (a payment the bank never received) to the registered URL + "/pix" (or `url`,
   * used as is); returns the HTTP status our service answered.
   * @throws Error when no URL is known or the receiver cannot be reached
   */
  forgeCallback(item: { txid: string; amount: number; endToEndId?: string }, url?: string): Promise<number>;
  /**
   * An unrequested devolução (MED) of `amount` centavos on received payment `endToEndId`: added to the Pix's
   * `devolucoes` with status DEVOLVIDO and natureza "ORIGINAL", id starting "MED", and a callback posted (unless
   * callback "drop").
   * @throws Error for an unknown payment, or an amount that is not positive or exceeds what is left of it
   */
  med(
    endToEndId: string,
    amount: number,
    options?: { callback?: "send" | "drop" },
  ): Promise<{ id: string; rtrId: string }>;
  /**
   * The next `count` API requests (token requests excluded unless includeToken; with `path`, only those whose path
   * starts with it, e.g. `/v2/rec/`) answer `status` (default 503).
   */
  failNext(count: number, status?: number, options?: { includeToken?: boolean; path?: string }): void;
  /**
   * The next `count` API requests (token requests excluded unless includeToken) never answer (until close), and are
   * not acted on: for timeout tests. (A request acted on but answered late is `setLatency`'s.)
   */
  hangNext(count: number, options?: { includeToken?: boolean }): void;
  /** Sets the reply delay, ms: the request is acted on at once, and its reply sent after the delay. */
  setLatency(ms: number): void;
  /** Makes every token issued so far invalid (the next call with one gets 401). */
  expireTokens(): void;
  /** How many tokens were issued (to test the cache and single-flight refresh). */
  tokensIssued(): number;
  /** Every request received, in order: method, path (with query), parsed JSON body, and the schema errors found. */
  requests(): Array<{ method: string; path: string; body: unknown; schemaErrors: string[] }>;
  /** Requests whose body/params failed the standard's schema (should be empty in every test). */
  violations(): Array<{ method: string; path: string; schemaErrors: string[] }>;
  /** Every callback the bank posted (or tried to), in order, with the status received or why it failed. */
  callbacks(): CallbackAttempt[];
  /** The current state of a cob or cobv (the standard's `CobCompleta`/`CobVCompleta` JSON) or undefined. */
  charge(txid: string): Record<string, unknown> | undefined;
  /** The registered webhook URL, or null. */
  webhookUrl(): string | null;
  /**
   * The payer's bank approves recurrence `idRec` (`APROVADA`; for journey 3 its immediate charge paid first) or
   * rejects it (`REJEITADA`), and (unless `callback: "drop"`) posts the standard's callback to the `webhookrec` URL +
   * "/rec"; resolves once that post was answered or failed.
   * @throws Error for an unknown recurrence or one not `CRIADA`
   */
  answerRecurrence(idRec: string, approve: boolean, options?: { callback?: "send" | "drop" }): Promise<Rec>;
  /**
   * The payer cancels approved recurrence `idRec` in their bank (`CANCELADA` by `USUARIO_PAGADOR`, its unpaid cycle
   * charges with it), and the callbacks are posted (unless dropped).
   * @throws Error for an unknown recurrence or one not `APROVADA`
   */
  cancelRecurrenceByPayer(idRec: string, options?: { callback?: "send" | "drop" }): Promise<Rec>;
  /**
   * The payer's bank settles cycle charge `txid`'s scheduled attempt (a Pix received, dated noon of the attempt's
   * day; the charge `CONCLUIDA`) and posts the `webhookcobr` callback + "/cobr" (unless dropped).
   * @throws Error for an unknown charge, one not `ATIVA`, or without an attempt scheduled
   */
  payCycle(txid: string, options?: { callback?: "send" | "drop" }): Promise<{ endToEndId: string }>;
  /**
   * The payer's bank fails cycle charge `txid`'s scheduled attempt (`REJEITADA`; the charge too unless retries are
   * allowed) and posts the callback (unless dropped).
   * @throws as {@link BankEmulator.payCycle}
   */
  failCycle(txid: string, options?: { callback?: "send" | "drop" }): Promise<CobR>;
  /** Every recurrence the bank holds (the standard's `RecCompleta`), oldest first. */
  recurrences(): Rec[];
  /** The cycle charges of recurrence `idRec` (the standard's `CobRCompleta`), in the order registered. */
  cycles(idRec: string): CobR[];
  /** Stops both servers, cuts hung requests and callbacks in flight, cancels pending settlements; removes the
   *  certificates' folder when the emulator made it in the temp folder. */
  close(): Promise<void>;
}

/**
 * Starts an emulator: makes (or reuses) the certificates in `options.dir`, then listens on 127.0.0.1.
 * @throws Error when `openssl` is unavailable or a port cannot be bound
 */
export async function startBankEmulator(options: BankEmulatorOptions = {}): Promise<BankEmulator> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "bank-emulator-")));
  const certificates = await ensureCertificates(dir);
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? "info", service: "bank-emulator" });
  const state = new BankState(options.pixKey ?? DEFAULT_PIX_KEY);
  const poster = new CallbackPoster(logger, CALLBACK_TIMEOUT_MS);
  const bank = new Bank(state, poster, options.settleDelayMs ?? 20);
  const tokens = new TokenStore(certificates.clientId, certificates.clientSecret, options.tokenTtlSeconds ?? 3600);
  const faults = new Faults(options.latencyMs ?? 0);
  const journal: RecordedRequest[] = [];
  const api = await startApiServer({
    port: options.port ?? 0,
    certificates,
    router: createRouter(bank),
    tokens,
    faults,
    journal,
  });
  const control = options.controlPort === undefined ? null : await startControlServer(bank, options.controlPort);
  const origin = `https://127.0.0.1:${api.port}`;

  return {
    apiUrl: `${origin}/v2`,
    tokenUrl: `${origin}/oauth/token`,
    controlUrl: control?.url ?? null,
    pixKey: state.pixKey,
    client: {
      clientId: certificates.clientId,
      clientSecret: certificates.clientSecret,
      certPem: certificates.clientCertPem,
      keyPem: certificates.clientKeyPem,
      caPem: certificates.caPem,
      pfx: certificates.clientPfx,
      files: certificates.files,
    },
    foreignClient: { certPem: certificates.foreignClientCertPem, keyPem: certificates.foreignClientKeyPem },
    payCharge: (txid, payOptions) => bank.payCharge(txid, payOptions),
    forgeCallback: (item, url) => bank.forgeCallback(item, url),
    med: (endToEndId, amount, medOptions) => bank.med(endToEndId, amount, medOptions),
    failNext: (count, status = 503, failOptions = {}) =>
      faults.failNext(count, status, failOptions.includeToken ?? false, failOptions.path),
    hangNext: (count, hangOptions = {}) => faults.hangNext(count, hangOptions.includeToken ?? false),
    setLatency: (ms) => {
      faults.latencyMs = ms;
    },
    expireTokens: () => tokens.expireAll(),
    tokensIssued: () => tokens.issued(),
    requests: () => journal.map((entry) => ({ ...entry })),
    violations: () =>
      journal
        .filter((entry) => entry.schemaErrors.length > 0)
        .map(({ method, path, schemaErrors }) => ({ method, path, schemaErrors })),
    callbacks: () => poster.sent(),
    charge: (txid) => {
      const found = state.findCharge(txid);
      return found ? chargeJson(found, state.paymentsOf(found)) : undefined;
    },
    webhookUrl: () => state.webhookUrl(),
    answerRecurrence: (idRec, approve, answerOptions) => bank.recurrences.answer(idRec, approve, answerOptions),
    cancelRecurrenceByPayer: (idRec, cancelOptions) => bank.recurrences.cancelByPayer(idRec, cancelOptions),
    payCycle: (txid, cycleOptions) => bank.recurrences.payCycle(txid, cycleOptions),
    failCycle: (txid, cycleOptions) => bank.recurrences.failCycle(txid, cycleOptions),
    recurrences: () => bank.recurrences.listRecurrences({ inicio: new Date(0), fim: new Date(8.64e15) }),
    cycles: (idRec) => bank.recurrences.cyclesOf(idRec),
    close: async () => {
      bank.close();
      poster.close();
      await Promise.all([api.close(), control?.close()]);
      if (ownDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
