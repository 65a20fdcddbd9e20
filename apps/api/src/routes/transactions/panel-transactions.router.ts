/**
 * The panel's charges and events (DESIGN §15), for the dashboard: the merchant API's use cases over the seller's
 * store, in the mode the query or body names (reads) or the charge's own (by id). Mounted behind the session.
 */
import { Router, type Request, type Response } from "express";
import type { Refund, Transaction } from "@lm/db";
import {
  ApiError,
  buildEventEnvelope,
  createRefund,
  createTransaction,
  findSellerStore,
  findStoreTransaction,
  listEvents,
  listRefunds,
  listTransactions,
  simulatePayment,
  transactionObject,
  type MerchantScope,
} from "@lm/domain";
import { serializeRefund } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelSellerId, requireStepUp } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { createRefundSchema } from "../refunds/refunds.contract";
import {
  panelCreateTransactionSchema,
  panelListEventsSchema,
  panelListRefundsSchema,
  panelListTransactionsSchema,
} from "./panel-transactions.contract";

/** The signed-in seller's store. */
function sellerStore(deps: AppDeps, res: Response) {
  return findSellerStore(deps.repos, panelSellerId(res));
}

/** The store and mode of the charge `req.params.id` of the signed-in seller (404 for another's). */
async function chargeScope(deps: AppDeps, req: Request, res: Response): Promise<MerchantScope> {
  const store = await sellerStore(deps, res);
  const charge = await findStoreTransaction(deps.repos, store.id, String(req.params.id));
  return { storeId: store.id, mode: charge.mode };
}

/** Router of `/v1/me/transactions` and its charges. */
export function panelTransactionsRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (transaction: Transaction) => ({ status: 201, body: transactionObject(transaction, deps.now()) });
  const refunded = (refund: Refund) => ({ status: 201, body: serializeRefund(refund) });

  router.get("/", async (req, res) => {
    const { mode, status, external_id, ...page } = validate(panelListTransactionsSchema, req.query);
    const scope = { storeId: (await sellerStore(deps, res)).id, mode };
    const now = deps.now();
    res.json(
      await listPage(
        page,
        "transaction",
        (args) => listTransactions(deps.repos, scope, { status, external_id }, args, now),
        (row) => transactionObject(row, now),
      ),
    );
  });

  router.post(
    "/",
    idempotent(
      deps,
      async (req, res, commitReply) => {
        const { mode, ...input } = validate(panelCreateTransactionSchema, req.body);
        if (mode !== "test") {
          throw new ApiError(
            "test_mode_only",
            "The panel creates test charges only; live charges come from your integration, with a live API key.",
          );
        }
        const store = await sellerStore(deps, res);
        const merchant = { storeId: store.id, storeName: store.name, mode };
        return created(
          await createTransaction(deps, merchant, input, {
            reply: (written) => commitReply(created(written)),
            idempotencyKey: req.get("idempotency-key"),
          }),
        );
      },
      { scopeOf: async (_req, res) => ({ storeId: (await sellerStore(deps, res)).id, mode: "test" }) },
    ),
  );

  router.get("/:id", async (req, res) => {
    const store = await sellerStore(deps, res);
    const transaction = await findStoreTransaction(deps.repos, store.id, String(req.params.id));
    res.json(transactionObject(transaction, deps.now()));
  });

  router.post("/:id/simulate-payment", async (req, res) => {
    const transaction = await simulatePayment(deps, await chargeScope(deps, req, res), String(req.params.id));
    res.status(202).json(transactionObject(transaction, deps.now()));
  });

  router.get("/:id/refunds", async (req, res) => {
    const page = validate(panelListRefundsSchema, req.query);
    const scope = await chargeScope(deps, req, res);
    const id = String(req.params.id);
    res.json(await listPage(page, "refund", (args) => listRefunds(deps.repos, scope, id, args), serializeRefund));
  });

  router.post(
    "/:id/refunds",
    requireStepUp(deps, "always"),
    idempotent(
      deps,
      async (req, res, commitReply) => {
        const input = validate(createRefundSchema, req.body ?? {});
        const scope = await chargeScope(deps, req, res);
        const refund = await createRefund(deps, scope, String(req.params.id), input, {
          reply: (written) => commitReply(refunded(written)),
        });
        return refunded(refund);
      },
      { scopeOf: (req, res) => chargeScope(deps, req, res), requiredFor: "refund" },
    ),
  );

  return router;
}

/** Router of `GET /v1/me/events?mode=&type=`. */
export function panelEventsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const { mode, type, created_after, created_before, ...page } = validate(panelListEventsSchema, req.query);
    const scope = { storeId: (await sellerStore(deps, res)).id, mode };
    const filters = { type, created_after, created_before };
    res.json(await listPage(page, "event", (args) => listEvents(deps, scope, filters, args), buildEventEnvelope));
  });
  return router;
}
