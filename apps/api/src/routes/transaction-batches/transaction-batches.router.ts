/**
 * The merchant API's batches of due-date charges (DESIGN §13 "Batches"): create (with `Idempotency-Key`), read, list,
 * and list a batch's items. Mounted behind API key authentication and the per-key rate limit.
 */
import { Router } from "express";
import type { BatchItemsPage, NewTransactionBatch } from "@lm/db";
import {
  ApiError,
  createTransactionBatch,
  findTransactionBatch,
  listTransactionBatchItems,
  listTransactionBatches,
  transactionObject,
  validationFailed,
  type TransactionBatchItemInput,
} from "@lm/domain";
import { serializeTransactionBatch, serializeTransactionBatchItem, type TransactionBatchItemList } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { idempotent } from "../../http/idempotency";
import { sendJson } from "../../http/json-reply";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import {
  batchBodySchema,
  batchItemSchema,
  listBatchItemsSchema,
  listBatchesSchema,
  type BatchItemsQuery,
} from "./transaction-batches.contract";

/** Router for `/v1/transaction-batches`. */
export function transactionBatchesRouter(deps: AppDeps): Router {
  const router = Router();
  const accepted = (batch: NewTransactionBatch) => ({ status: 202, body: serializeTransactionBatch(batch) });

  router.post(
    "/",
    idempotent(deps, async (req, res, commitReply) => {
      const { transactions } = validate(batchBodySchema, req.body);
      const batch = await createTransactionBatch(deps, merchantOf(res), transactions.map(readItem), {
        requestId: res.locals.requestId as string,
        reply: (written) => commitReply(accepted(written)),
      });
      return accepted(batch);
    }),
  );

  router.get("/", async (req, res) => {
    const page = validate(listBatchesSchema, req.query);
    const scope = merchantOf(res);
    res.json(
      await listPage(
        page,
        "transactionBatch",
        (args) => listTransactionBatches(deps.repos, scope, args),
        serializeTransactionBatch,
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    const batch = await findTransactionBatch(deps.repos, merchantOf(res), req.params.id);
    sendJson(res, 200, serializeTransactionBatch(batch));
  });

  router.get("/:id/items", async (req, res) => {
    const query = validate(listBatchItemsSchema, req.query);
    const page = itemsPage(query);
    const rows = await listTransactionBatchItems(deps.repos, merchantOf(res), req.params.id, page);
    const shown = rows.slice(0, query.limit);
    // Walking back from `ending_before` reads the items in reverse; the page is still shown in index order.
    if (page.order === "desc") shown.reverse();
    const now = deps.now();
    res.json({
      object: "list",
      data: shown.map(({ item, charge }) =>
        serializeTransactionBatchItem(item, charge === null ? null : transactionObject(charge, now)),
      ),
      has_more: rows.length > query.limit,
    } satisfies TransactionBatchItemList);
  });

  return router;
}

/** Item `value` of a batch's body, read as `POST /v1/transactions` reads its body, or its refusal. */
function readItem(value: unknown): TransactionBatchItemInput {
  try {
    return { input: validate(batchItemSchema, value) };
  } catch (err) {
    if (err instanceof ApiError) return { refused: err };
    throw err;
  }
}

/**
 * The page of items `query` asks for: one more than the limit, to learn `has_more`.
 * @throws ApiError `validation_failed` (param `ending_before`) when both cursors are given
 */
function itemsPage(query: BatchItemsQuery): BatchItemsPage {
  const { starting_after: after, ending_before: before, status, limit } = query;
  if (after !== undefined && before !== undefined) {
    throw validationFailed("Give starting_after or ending_before, not both.", "ending_before");
  }
  const take = limit + 1;
  if (before !== undefined) return { status, index: { lt: before }, order: "desc", take };
  return { status, ...(after === undefined ? {} : { index: { gt: after } }), order: "asc", take };
}
