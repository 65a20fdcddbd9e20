/**
 * The acquirer port (DESIGN §7 "The acquirer does the moving"): what the service asks of the acquirer that moves
 * money out. A request is only accepted or refused here; its outcome arrives later as an inbound notification
 * (`POST /v1/acquirers/{slug}/notifications`), stored in the inbox first, which settles the refund or withdrawal.
 * Every request is idempotent on our own id (refund or withdrawal id): asking again after a crash between sending and
 * recording never moves money twice.
 */
import type { UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { createSandboxAcquirer } from "./sandbox-acquirer";

/** A devolução of a received Pix (Bacen `PUT /pix/{e2eid}/devolucao/{id}`). */
export interface PixRefundRequest {
  /** Our refund id, the devolução `id`: the idempotency key. */
  refundId: string;
  /** The refunded payment's `endToEndId`. */
  paymentEndToEndId: string;
  /** The charge's `txid` and amount (centavos), echoed in the acquirer's notification. */
  txid: string;
  paymentAmount: number;
  /** Centavos to return. */
  amount: number;
  reason: string | null;
  /** When the refund was created (fixes its deterministic identities). */
  createdAt: Date;
}

/** A Pix sent to one of the seller's payout keys. */
export interface PixPaymentRequest {
  /** Our withdrawal id, sent as `idEnvio`: the idempotency key. */
  withdrawalId: string;
  /** The receiving Pix key, in full (never logged). */
  key: { type: "cpf" | "cnpj" | "email" | "phone" | "evp"; value: string };
  /** Centavos to send. */
  amount: number;
  createdAt: Date;
}

/** An acquirer that can move money out. */
export interface AcquirerPort {
  /** The acquirer's slug: its notifications arrive at `/v1/acquirers/{slug}/notifications`. */
  slug: string;
  /**
   * Asks for a devolução.
   * @returns the return's end-to-end id (`rtrId`), once accepted
   * @throws Error when the request could not be made (retried by the caller, within its bound)
   */
  refundPix(request: PixRefundRequest): Promise<{ returnId: string }>;
  /**
   * Sends a Pix to a key.
   * @returns the payment's end-to-end id, once accepted
   * @throws Error when the request could not be made (retried by the caller, within its bound)
   */
  sendPixPayment(request: PixPaymentRequest): Promise<{ endToEndId: string }>;
}

/**
 * The acquirer that moves `mode`'s money: the in-process sandbox for `test`. No live acquirer adapter exists yet, so
 * `live` has none and money cannot leave in live mode.
 * @returns the port, or null when `mode` has no acquirer
 */
export function acquirerFor(deps: UseCaseDeps, mode: "live" | "test"): AcquirerPort | null {
  return mode === "test" ? createSandboxAcquirer(deps) : null;
}

/**
 * The acquirer of `mode`, for a request that is about to move money.
 * @throws ApiError `acquirer_not_configured` (503) when `mode` has none: refused at creation, never left pending
 */
export function requireAcquirer(deps: UseCaseDeps, mode: "live" | "test"): AcquirerPort {
  const acquirer = acquirerFor(deps, mode);
  if (!acquirer) {
    throw new ApiError(
      "acquirer_not_configured",
      `No acquirer is configured to move money in ${mode} mode; nothing was created.`,
    );
  }
  return acquirer;
}

/**
 * Most requests made to the acquirer for one refund or withdrawal (the job's run plus the reconciler's re-offers,
 * about 30 s apart). Past it the row fails with {@link ACQUIRER_UNAVAILABLE} and its amount is put back.
 */
export const ACQUIRER_MAX_ATTEMPTS = 5;

/** `failure_reason` of a refund or withdrawal the acquirer never accepted within {@link ACQUIRER_MAX_ATTEMPTS}. */
export const ACQUIRER_UNAVAILABLE = "acquirer_unavailable";

/** `failure_reason` of a refund or withdrawal the acquirer refused (`NAO_REALIZADO`). */
export const ACQUIRER_REJECTED = "rejected_by_acquirer";
