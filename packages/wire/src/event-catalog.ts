/**
 * The event catalog (SPEC "Events", DESIGN §4 "Event types (v1)"): every type the service records, what it means, and
 * the object its `data.object` holds (the resource as its read operation returns it, SPEC "Event envelope"). The
 * domain validates subscriptions and filters against it, `GET /v1/me/event-types` lists it, and the OpenAPI
 * document's `webhooks` are generated from it. New types are additive (SPEC "Versioning"): add them here.
 */
import type { TSchema } from "@sinclair/typebox";
import { Dispute } from "./disputes";
import { Recurrence } from "./recurrences";
import { Refund } from "./refunds";
import { Seller } from "./sellers";
import { TransactionBatch } from "./transaction-batches";
import { Transaction } from "./transactions";
import { EndpointPing } from "./webhook-endpoints";
import { Withdrawal } from "./withdrawals";

/** One event type: its one-line meaning and the schema of its `data.object`. */
export interface EventTypeEntry {
  description: string;
  object: TSchema;
}

/** Every type an endpoint may subscribe to. */
export const SUBSCRIBABLE_EVENTS = {
  "transaction.created": { object: Transaction, description: "A charge was created and awaits payment." },
  "transaction.paid": { object: Transaction, description: "The payer's bank confirmed the payment of a charge." },
  "transaction.expired": { object: Transaction, description: "A charge reached its deadline unpaid." },
  "transaction.canceled": { object: Transaction, description: "A pending charge was canceled by the merchant." },
  "transaction.refunded": { object: Transaction, description: "A charge was refunded in full." },
  "transaction.failed": {
    object: Transaction,
    description:
      "The payer's bank could not debit a recurrence's cycle on its due date, nor on any retry its policy allows (DESIGN §14).",
  },
  "transaction.disputed": {
    object: Transaction,
    description: "The payer's bank took money of a paid charge back (MED); see its dispute.",
  },
  "transaction_batch.completed": {
    object: TransactionBatch,
    description: "Every item of a batch of due-date charges has its charge created or its refusal; see its items.",
  },
  "recurrence.created": {
    object: Recurrence,
    description: "A Pix Automático recurrence was created and awaits the payer's authorization.",
  },
  "recurrence.approved": {
    object: Recurrence,
    description: "The payer authorized a recurrence; its cycles are charged from now on.",
  },
  "recurrence.rejected": { object: Recurrence, description: "The payer refused to authorize a recurrence." },
  "recurrence.expired": { object: Recurrence, description: "A recurrence was not authorized within 30 days." },
  "recurrence.canceled": {
    object: Recurrence,
    description: "The payer or the merchant canceled a recurrence (`canceled_by`); its unpaid cycles are canceled.",
  },
  "refund.created": {
    object: Refund,
    description: "A refund of a paid charge was requested; its amount left the available balance.",
  },
  "refund.succeeded": { object: Refund, description: "The payer's bank received a refund." },
  "refund.failed": { object: Refund, description: "A refund was refused; its amount is back in the balance." },
  "dispute.created": {
    object: Dispute,
    description: "The payer's bank returned money of a paid charge without our asking (MED); the balance paid it.",
  },
  "withdrawal.created": { object: Withdrawal, description: "A withdrawal to a payout key was requested." },
  "withdrawal.processing": { object: Withdrawal, description: "A withdrawal was sent to the bank." },
  "withdrawal.completed": { object: Withdrawal, description: "A withdrawal reached the payout key." },
  "withdrawal.failed": {
    object: Withdrawal,
    description: "A withdrawal was refused or returned; its amount is back in the balance.",
  },
  "seller.updated": { object: Seller, description: "The seller's profile or KYC status changed." },
} as const satisfies Record<string, EventTypeEntry>;

/** A type an endpoint may subscribe to. */
export type SubscribableEventType = keyof typeof SUBSCRIBABLE_EVENTS;

/** Sent only on request, to one endpoint, whatever it subscribes to (DESIGN §4); never subscribable. */
export const PING_EVENT_TYPE = "ping";

/** The `ping` event. */
export const PING_EVENT: EventTypeEntry = {
  description:
    "Sent only when the owner asks (`POST /v1/me/webhook-endpoints/{id}/ping`), to that endpoint alone, whatever it subscribes to; never subscribable.",
  object: EndpointPing,
};
