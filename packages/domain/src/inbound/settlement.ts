/**
 * What settling an inbox item's report came to (DESIGN §5 "Inbox"): the outcome written on the item, shared by the
 * modules that settle a kind of report (payouts, disputes) and the one that processes items (settle).
 */

/** What settling did: the inbox item's outcome and error, the charge concerned and the deliveries to enqueue. */
export interface Settlement {
  /** `succeeded`, `completed`, `failed`, `processing`, `already_settled`, or the anomaly code. */
  result: string;
  /** The inbox item's error (an anomaly), or null. */
  error: string | null;
  transactionId?: string;
  deliveryIds: string[];
}
