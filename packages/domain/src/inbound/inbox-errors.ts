/** The codes recorded on an inbox item's `error` (DESIGN §5); a detail may follow after `: `. */
import { NOT_CONFIRMED_ERROR, PROCESSING_FAILED_ERROR } from "@lm/db";

/**
 * Codes recorded at receipt (`invalid_signature`, `malformed_notification`, `duplicate`) or as a payment anomaly when
 * processing.
 */
export const INBOX_ERRORS = {
  invalidSignature: "invalid_signature",
  malformed: "malformed_notification",
  /** A valid item for this acquirer and `endToEndId` was received before. */
  duplicate: "duplicate",
  unknownTxid: "unknown_txid",
  /** A bank's Pix Automático report names a recurrence (`idRec`) that is none of ours (DESIGN §14 "Live"). */
  unknownRecurrence: "unknown_recurrence",
  modeMismatch: "mode_mismatch",
  /** The report is about a charge, refund, withdrawal or dispute whose money another acquirer holds (DESIGN §9). */
  acquirerMismatch: "acquirer_mismatch",
  amountMismatch: "amount_mismatch",
  /**
   * Not an error: the note kept on the item of a due-date charge's payment that a bank confirmed at another amount
   * than ours for that day; the bank's figure prevails and the money is credited (DESIGN §13 "Live").
   */
  amountDiffersFromComputed: "amount_differs_from_computed",
  notPending: "not_pending",
  /** A payment to a reusable QR code deactivated before it was settled (DESIGN §13): the operator returns it. */
  qrCodeInactive: "qr_code_inactive",
  /** A bank's notification (unsigned, DESIGN §9) that the bank, asked back, does not confirm. */
  notConfirmed: NOT_CONFIRMED_ERROR,
  /** Processing threw (the database refused a value, was unreachable...); the job is retried and a success clears it. */
  processingFailed: PROCESSING_FAILED_ERROR,
} as const;
