/**
 * The merchant API's charges (DESIGN §5): create (with `Idempotency-Key`), read, list, cancel, and in test mode
 * simulate a payment, a dispute (§11) or the deadline passing (§12). Mounted behind API key authentication and the
 * per-key rate limit.
 */
import { Router } from "express";
import type { Transaction } from "@lm/db";
import {
  cancelTransaction,
  createTransaction,
  findAmountDue,
  findTransaction,
  listTransactions,
  simulateDispute,
  simulateExpiration,
  simulatePayment,
  transactionObject,
} from "@lm/domain";
import { serializeDispute, type AmountDue } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { idempotent } from "../../http/idempotency";
import { sendJson } from "../../http/json-reply";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import {
  amountDueQuerySchema,
  createTransactionSchema,
  listTransactionsSchema,
  simulateDisputeSchema,
  simulatePaymentSchema,
} from "./transactions.contract";

/** Router for `/v1/transactions`. */
export function transactionsRouter(deps: AppDeps): Router {
  const router = Router();
  const replyWith = (status: number) => (transaction: Transaction) => ({
    status,
    body: transactionObject(transaction, deps.now()),
  });
  const created = replyWith(201);
  const changed = replyWith(200);

  router.post(
    "/",
    idempotent(deps, async (req, res, commitReply) => {
      const input = validate(createTransactionSchema, req.body);
      const transaction = await createTransaction(deps, merchantOf(res), input, {
        reply: (written) => commitReply(created(written)),
        idempotencyKey: req.get("idempotency-key"),
      });
      return created(transaction);
    }),
  );

  router.get("/", async (req, res) => {
    const { status, external_id, recurrence_id, ...page } = validate(listTransactionsSchema, req.query);
    const scope = merchantOf(res);
    const now = deps.now();
    res.json(
      await listPage(
        page,
        "transaction",
        (args) => listTransactions(deps.repos, scope, { status, external_id, recurrence_id }, args, now),
        (row) => transactionObject(row, now),
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    const transaction = await findTransaction(deps.repos, merchantOf(res), req.params.id);
    sendJson(res, 200, transactionObject(transaction, deps.now()));
  });

  router.post(
    "/:id/cancel",
    idempotent(deps, async (req, res, commitReply) => {
      const transaction = await cancelTransaction(deps, merchantOf(res), String(req.params.id), {
        reply: (written) => commitReply(changed(written)),
      });
      return changed(transaction);
    }),
  );

  router.get("/:id/amount-due", async (req, res) => {
    const { date } = validate(amountDueQuerySchema, req.query);
    const due = await findAmountDue(deps.repos, merchantOf(res), req.params.id, date, deps.now());
    res.json({ object: "amount_due", ...due } satisfies AmountDue);
  });

  router.post("/:id/simulate-payment", async (req, res) => {
    const { date } = validate(simulatePaymentSchema, req.body ?? {});
    const transaction = await simulatePayment(deps, merchantOf(res), req.params.id, { date });
    res.status(202).json(transactionObject(transaction, deps.now()));
  });

  router.post("/:id/simulate-expiration", async (req, res) => {
    const transaction = await simulateExpiration(deps, merchantOf(res), String(req.params.id));
    res.status(202).json(transactionObject(transaction, deps.now()));
  });

  router.post("/:id/simulate-dispute", async (req, res) => {
    const { amount } = validate(simulateDisputeSchema, req.body ?? {});
    const dispute = await simulateDispute(deps, merchantOf(res), String(req.params.id), amount);
    res.status(201).json(serializeDispute(dispute));
  });

  return router;
}
