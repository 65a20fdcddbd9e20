/**
 * Contracts of the acquirers routes.
 */
import Joi from "joi";
import { defineRoute, PUBLIC } from "../../http/contract";
import { CycleChargeNotification, InboundReceipt, PixNotification, RecurrenceNotification } from "@lm/wire";

/** Path of the routes under `{slug}`: The acquirer (`sandbox` exists by default; a bank's is the slug given to `acquirer:configure`). */
export const acquirerParams = Joi.object<{ slug: string }>({
  slug: Joi.string()
    .required()
    .description("The acquirer (`sandbox` exists by default; a bank's is the slug given to `acquirer:configure`)."),
});

/** `receiveAcquirerNotification`. */
export const receiveAcquirerNotification = defineRoute({
  method: "post",
  path: "/v1/acquirers/{slug}/notifications",
  operationId: "receiveAcquirerNotification",
  tag: "Acquirer notifications",
  summary: "An acquirer's payment notification",
  description:
    "No session or key. The sandbox and acquirers that sign are authenticated by `X-Acquirer-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` under the acquirer's secret, 5 min tolerance. A configured bank (the Central Bank's API Pix standard, which signs nothing) needs no signature: its notification is only a hint, and each payment, devolução or payout it names is read back from the bank before it settles anything; what the bank does not confirm stays on its inbox item as the anomaly `not_confirmed_by_acquirer`. A bank posts to the registered URL with `/pix` appended: `POST /v1/acquirers/{slug}/notifications/pix` is the same operation. Every request to a known acquirer is stored first (up to 100 kB, any content type); valid new payments are processed by the worker. A devolução we did not ask for (an unknown id, or a `natureza` beginning `MED_`) becomes a dispute of the charge its payment paid (DESIGN §11).",
  security: PUBLIC,
  headers: ["AcquirerSignature"],
  params: acquirerParams,
  body: PixNotification,
  replies: {
    200: { description: "Stored (valid signature or not).", schema: InboundReceipt },
  },
  errors: {
    404: { description: "`resource_not_found`: unknown acquirer; nothing is stored.", codes: ["resource_not_found"] },
  },
});

/** `receiveAcquirerPixNotification`. */
export const receiveAcquirerPixNotification = defineRoute({
  method: "post",
  path: "/v1/acquirers/{slug}/notifications/pix",
  operationId: "receiveAcquirerPixNotification",
  tag: "Acquirer notifications",
  summary: "A bank's payment notification (API Pix standard)",
  description:
    "The same operation as `POST /v1/acquirers/{slug}/notifications`, at the path a bank of the Central Bank's API Pix standard posts to (the registered webhook URL with `/pix` appended). Body: the standard's `{pix: [...]}`. No session or key; a configured bank's notification needs no `X-Acquirer-Signature` (the standard signs nothing): each payment, devolução or payout it names is read back from the bank before it settles anything, and what the bank does not confirm stays on its inbox item as the anomaly `not_confirmed_by_acquirer`. The sandbox and acquirers that sign still need their signature here. Every request to a known acquirer is stored first (up to 100 kB, any content type); valid new payments are processed by the worker. A devolução we did not ask for (an unknown id, or a `natureza` beginning `MED_`) becomes a dispute of the charge its payment paid (DESIGN §11).",
  security: PUBLIC,
  headers: ["AcquirerSignature"],
  params: acquirerParams,
  body: PixNotification,
  replies: {
    200: { description: "Stored (valid signature or not).", schema: InboundReceipt },
  },
  errors: {
    404: { description: "`resource_not_found`: unknown acquirer; nothing is stored.", codes: ["resource_not_found"] },
  },
});

/** `receiveAcquirerRecurrenceNotification`. */
export const receiveAcquirerRecurrenceNotification = defineRoute({
  method: "post",
  path: "/v1/acquirers/{slug}/notifications/rec",
  operationId: "receiveAcquirerRecurrenceNotification",
  tag: "Acquirer notifications",
  summary: "A bank's Pix Automático recurrence notification (API Pix standard)",
  description:
    "Where a bank of the Central Bank's API Pix standard posts its `webhookrec` callbacks (the registered URL with `/rec` appended, DESIGN §14 \"Live\"). Body: the standard's `{recs: [...]}`. No session or key, no signature (the standard signs nothing): the request is stored first, and each recurrence it names is read back from the bank (`GET /rec/{idRec}`) before anything changes; a recurrence that is none of ours stays on its inbox item as `unknown_recurrence`, one the bank does not know as `not_confirmed_by_acquirer`.",
  security: PUBLIC,
  params: acquirerParams,
  body: RecurrenceNotification,
  replies: {
    200: { description: "Stored.", schema: InboundReceipt },
  },
  errors: {
    404: { description: "`resource_not_found`: unknown acquirer; nothing is stored.", codes: ["resource_not_found"] },
  },
});

/** `receiveAcquirerCycleChargeNotification`. */
export const receiveAcquirerCycleChargeNotification = defineRoute({
  method: "post",
  path: "/v1/acquirers/{slug}/notifications/cobr",
  operationId: "receiveAcquirerCycleChargeNotification",
  tag: "Acquirer notifications",
  summary: "A bank's Pix Automático cycle charge notification (API Pix standard)",
  description:
    "Where a bank of the Central Bank's API Pix standard posts its `webhookcobr` callbacks (the registered URL with `/cobr` appended, DESIGN §14 \"Live\"). Body: the standard's `{cobsr: [...]}`. No session or key, no signature: the request is stored first, and each cycle charge it names is read back from the bank (`GET /cobr/{txid}`) before anything changes. Paid, the charge settles as any payment (`transaction.paid`); a failed debit is retried at the bank (`retentativa`) while the recurrence's retry policy allows, else the charge fails (`transaction.failed`).",
  security: PUBLIC,
  params: acquirerParams,
  body: CycleChargeNotification,
  replies: {
    200: { description: "Stored.", schema: InboundReceipt },
  },
  errors: {
    404: { description: "`resource_not_found`: unknown acquirer; nothing is stored.", codes: ["resource_not_found"] },
  },
});
