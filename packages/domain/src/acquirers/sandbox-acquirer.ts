/**
 * The sandbox acquirer (DESIGN §5, §7): the in-process acquirer of test mode. It pays test charges on request
 * (`simulate-payment`) and answers refunds and withdrawals at once, each by a notification it signs with the sandbox
 * secret and hands to the same receipt use case as a real acquirer's `POST /v1/acquirers/sandbox/notifications`, so
 * the same code stores it in the inbox (reprocessable), processes and settles it. An amount whose last two digits are
 * `13` is refused (`NAO_REALIZADO`), so integrators can test failures.
 */
import { createHash, randomBytes } from "node:crypto";
import { valorFromCentavos } from "@lm/pix-api";
import type { UseCaseDeps } from "../deps";
import { buildPixBrCode, sandboxPixLocation } from "../br-code/br-code";
import { signatureHeader } from "../webhooks/signature";
import type { AcquirerPort } from "./acquirer-port";
import {
  sandboxAcquirerSecret,
  SANDBOX_ACQUIRER_SLUG,
  ACQUIRER_SIGNATURE_HEADER,
  storeAcquirerNotification,
} from "../inbound";

/** ISPB written in sandbox end-to-end ids: eight zeros, which no participant has. */
const SANDBOX_ISPB = "00000000";

/**
 * The Pix key of the sandbox's static BR Codes (test reusable QR codes, DESIGN §13): a random key (EVP, a UUID v4)
 * whose 122 random bits are all zero, which the DICT's random draw will not give to an account, so that a test code is
 * not payable, as the sandbox's dynamic codes point at a location nobody serves.
 */
export const SANDBOX_PIX_KEY = "00000000-0000-4000-8000-000000000000";

/** The `motivo` of a refused sandbox transfer; settlement records `rejected_by_acquirer`. */
const REFUSAL_REASON = "Recusado pelo sandbox: valor terminado em 13";

/**
 * A sandbox end-to-end id in the central bank's layout: `E` (payment) or `D` (devolução) + ISPB (8) + `yyyyMMddHHmm`
 * (UTC) + 11 alphanumerics, 32 characters. With `seed` the suffix is derived from it, so asking again for the same
 * refund or withdrawal gives the same id (the acquirer's idempotency); without, it is random.
 */
export function sandboxEndToEndId(now: Date, options: { prefix?: "E" | "D"; seed?: string } = {}): string {
  const stamp = now.toISOString().replace(/[-T:]/g, "").slice(0, 12);
  const suffix =
    options.seed === undefined
      ? randomBytes(11).toString("hex").slice(0, 11)
      : createHash("sha256").update(options.seed).digest("hex").slice(0, 11);
  return `${options.prefix ?? "E"}${SANDBOX_ISPB}${stamp}${suffix}`;
}

/** Whether the sandbox refuses `amount` centavos: its last two digits are `13` (1013, 13). */
export function sandboxRefuses(amount: number): boolean {
  return amount % 100 === 13;
}

/**
 * Signs `body` with the sandbox secret and receives it as the sandbox's inbound notification.
 * @returns the ids of the inbox items stored and enqueued
 */
export async function postSandboxNotification(deps: UseCaseDeps, body: object): Promise<string[]> {
  const raw = JSON.stringify(body);
  const now = deps.now();
  const secret = sandboxAcquirerSecret(deps.config.encryptionKey);
  const { enqueued } = await storeAcquirerNotification(deps, {
    slug: SANDBOX_ACQUIRER_SLUG,
    rawBody: Buffer.from(raw, "utf8"),
    headers: {
      "content-type": "application/json",
      "user-agent": "lm-pix-sandbox/1.0",
      [ACQUIRER_SIGNATURE_HEADER]: signatureHeader([secret], Math.floor(now.getTime() / 1000), raw),
    },
  });
  return enqueued;
}

/**
 * The sandbox as an {@link AcquirerPort}: it registers a charge by building its BR Code itself (no I/O), cancels at
 * once, accepts every request to move money and notifies its outcome straight away.
 */
export function createSandboxAcquirer(deps: UseCaseDeps): AcquirerPort {
  return {
    slug: SANDBOX_ACQUIRER_SLUG,
    acquirerId: null,
    sendsPayouts: true,
    pixKey: () => SANDBOX_PIX_KEY,
    async registerCharge(charge) {
      const location = sandboxPixLocation(deps.config.publicBaseUrl, charge.txid);
      return { brCode: buildPixBrCode({ location, merchantName: charge.merchantName }) };
    },
    async cancelCharge() {
      return "canceled";
    },
    async refundPix(request) {
      const returnId = sandboxEndToEndId(request.createdAt, { prefix: "D", seed: request.refundId });
      const refused = sandboxRefuses(request.amount);
      const at = deps.now().toISOString();
      await postSandboxNotification(deps, {
        pix: [
          {
            endToEndId: request.paymentEndToEndId,
            txid: request.txid,
            valor: valorFromCentavos(request.paymentAmount),
            horario: at,
            devolucoes: [
              {
                id: request.refundId,
                rtrId: returnId,
                valor: valorFromCentavos(request.amount),
                horario: refused ? { solicitacao: at } : { solicitacao: at, liquidacao: at },
                status: refused ? "NAO_REALIZADO" : "DEVOLVIDO",
                ...(refused ? { motivo: REFUSAL_REASON } : {}),
              },
            ],
          },
        ],
      });
      return { returnId };
    },
    async sendPixPayment(request) {
      const endToEndId = sandboxEndToEndId(request.createdAt, { seed: request.withdrawalId });
      const refused = sandboxRefuses(request.amount);
      await postSandboxNotification(deps, {
        pix: [
          {
            endToEndId,
            idEnvio: request.withdrawalId,
            valor: valorFromCentavos(request.amount),
            horario: deps.now().toISOString(),
            status: refused ? "NAO_REALIZADO" : "REALIZADO",
            ...(refused ? { motivo: REFUSAL_REASON } : {}),
          },
        ],
      });
      return { endToEndId };
    },
  };
}
