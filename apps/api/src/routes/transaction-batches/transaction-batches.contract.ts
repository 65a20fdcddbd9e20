/**
 * Contracts and joi schemas of the batch routes (DESIGN §13 "Batches", the standard's `lotecobv`).
 */
import Joi from "joi";
import type { DueDateChargeInput } from "@lm/domain";
import {
  MAX_BATCH_ITEMS,
  TransactionBatch,
  TransactionBatchItemList,
  TransactionBatchList,
  type TransactionBatchItem,
} from "@lm/wire";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  noAcquirer,
} from "../../http/contract";
import { listQuerySchema, MAX_LIST_LIMIT, type ListQuery } from "../../http/list";
import { createTransactionSchema } from "../transactions/transactions.contract";

/**
 * One item of a batch: the body `POST /v1/transactions` takes, with `due_date` required. An immediate charge is refused
 * as that item's `validation_failed` (param `due_date`), like any other fault of one item, rather than as a 400 for the
 * whole batch: a batch is the standard's `lotecobv`, which holds due-date charges only and reports each charge on its
 * own, and one rule for every fault of an item lets the integrator read all of a batch's problems in its items at once.
 */
export const batchItemSchema = createTransactionSchema.keys({
  due_date: Joi.string()
    .max(10)
    .required()
    .messages({
      "any.required":
        "A batch holds due-date charges only: give due_date (POST /v1/transactions creates immediate charges).",
    })
    .description("Required: `YYYY-MM-DD`, today or later in São Paulo (see `POST /v1/transactions`)."),
}) as Joi.ObjectSchema as Joi.ObjectSchema<DueDateChargeInput>;

/** The body's `transactions`: 1 to 1,000 items. */
const items = () =>
  Joi.array()
    .min(1)
    .max(MAX_BATCH_ITEMS)
    .required()
    .description(
      `1 to ${MAX_BATCH_ITEMS} due-date charges, each the body \`POST /v1/transactions\` takes with \`due_date\`. A fault of one item (the body \`POST /v1/transactions\` would refuse, or no \`due_date\`) fails that item only.`,
    );

/**
 * The body of `POST /v1/transaction-batches` as a whole: what refuses the request (not an object, `transactions` not
 * an array, no item, more than 1,000, an unknown field). Each item is read on its own with {@link batchItemSchema}.
 */
export const batchBodySchema: Joi.ObjectSchema<{ transactions: unknown[] }> = Joi.object({
  transactions: items(),
}).prefs({ stripUnknown: false });

/** The body of `POST /v1/transaction-batches` as documented: the whole and each item's schema. */
export const createTransactionBatchSchema: Joi.ObjectSchema<{ transactions: DueDateChargeInput[] }> = Joi.object({
  transactions: items().items(batchItemSchema),
})
  .prefs({ stripUnknown: false })
  .description("Unknown fields are refused (400 `validation_failed`), not ignored, at either level.");

/** Query of `GET /v1/transaction-batches/{id}/items`: paged by index, in the request's order. */
export interface BatchItemsQuery {
  limit: number;
  starting_after?: number;
  ending_before?: number;
  status?: TransactionBatchItem["status"];
}

/** Query of `GET /v1/transaction-batches/{id}/items`. */
export const listBatchItemsSchema: Joi.ObjectSchema<BatchItemsQuery> = Joi.object({
  limit: Joi.number().integer().min(1).max(MAX_LIST_LIMIT).default(20),
  starting_after: Joi.number()
    .integer()
    .min(0)
    .max(MAX_BATCH_ITEMS - 1)
    .description("An item's `index`: the page after it. Not with `ending_before`."),
  ending_before: Joi.number()
    .integer()
    .min(0)
    .max(MAX_BATCH_ITEMS - 1)
    .description("An item's `index`: the page before it. Not with `starting_after`."),
  status: Joi.string().valid("pending", "succeeded", "failed"),
}).prefs({ convert: true, stripUnknown: false });

/** Query of `GET /v1/transaction-batches`. */
export const listBatchesSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Path of the routes under `{id}`. */
export const batchParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^tbt_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A batch id; any other string is 404."),
});

/** `createTransactionBatch`. */
export const createTransactionBatch = defineRoute({
  method: "post",
  path: "/v1/transaction-batches",
  operationId: "createTransactionBatch",
  tag: "Charge batches",
  summary: "Create up to 1,000 due-date charges at once",
  description:
    "The standard's `lotecobv`. The batch and its items are written at once, and the worker then creates each item's charge exactly as `POST /v1/transactions` would (registered at the mode's acquirer, `transaction.created` sent), usually within seconds; follow `GET /v1/transaction-batches/{id}` or wait for `transaction_batch.completed`, then read the items. A refused item never stops the others: its `error` is what `POST /v1/transactions` would have answered for it. The body may be up to 2 MB.\n\nIn live mode each charge is registered at the bank on its own, as `POST /v1/transactions` registers it; one `PUT /lotecobv/{id}` per batch is to follow. With an `Idempotency-Key`, the same request sent again replays the first reply (`status` as it was then) and creates nothing more.",
  security: API_KEY,
  headers: ["IdempotencyKey"],
  body: createTransactionBatchSchema,
  replies: {
    202: {
      description:
        "The batch, `processing` (or `completed` already, when every item was refused as it was read: see its items).",
      schema: TransactionBatch,
      headers: ["IdempotentReplayed"],
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body is not `{transactions: [...]}` with 1 to 1,000 items, or has an unknown field; or a malformed `Idempotency-Key`. A fault of one item is not a 400: that item fails. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    409: {
      description: "`idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    503: noAcquirer("no acquirer registers charges in this mode (live mode without an activated bank)"),
  },
});

/** `listTransactionBatches`. */
export const listTransactionBatches = defineRoute({
  method: "get",
  path: "/v1/transaction-batches",
  operationId: "listTransactionBatches",
  tag: "Charge batches",
  summary: "List batches",
  description: "Unknown query parameters are refused (400).",
  security: API_KEY,
  query: listBatchesSchema,
  replies: {
    200: { description: "A page of the key's store and mode, newest first.", schema: TransactionBatchList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});

/** `getTransactionBatch`. */
export const getTransactionBatch = defineRoute({
  method: "get",
  path: "/v1/transaction-batches/{id}",
  operationId: "getTransactionBatch",
  tag: "Charge batches",
  summary: "Read a batch",
  security: API_KEY,
  params: batchParams,
  replies: {
    200: { description: "The batch, with its counts so far.", schema: TransactionBatch },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});

/** `listTransactionBatchItems`. */
export const listTransactionBatchItems = defineRoute({
  method: "get",
  path: "/v1/transaction-batches/{id}/items",
  operationId: "listTransactionBatchItems",
  tag: "Charge batches",
  summary: "List a batch's items: each charge, or why it was refused",
  description:
    "In the request's order (by `index`, from 0), paged by `limit` and an item's `index` in `starting_after` or `ending_before`; `status=failed` lists the refused ones. Unknown query parameters are refused (400).",
  security: API_KEY,
  params: batchParams,
  query: listBatchItemsSchema,
  replies: {
    200: { description: "A page of the batch's items.", schema: TransactionBatchItemList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});
