/**
 * The balance and its balance transactions (DESIGN §7 "Balance"): in the panel for a mode given in the query
 * (`test` by default), with an API key for the key's mode. The balance is one row (the running total).
 */
import { Router, type Response } from "express";
import { getBalance, listBalanceTransactions, merchantSellerScope, type BalanceScope } from "@lm/domain";
import { serializeBalanceTransaction } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { panelSellerId } from "../../http/auth";
import { listPage, type ListQuery } from "../../http/list";
import { validate } from "../../http/validate";
import { panelBalanceSchema, panelBalanceTransactionsSchema } from "./balance.contract";
import { listBalanceTransactionsSchema } from "./balance.contract";

/** The list reply of `scope`'s balance transactions for a validated `page` query. */
function balanceTransactionsPage(deps: AppDeps, scope: BalanceScope, page: ListQuery) {
  return listPage(
    page,
    "balanceTransaction",
    (args) => listBalanceTransactions(deps.repos, scope, args),
    serializeBalanceTransaction,
  );
}

/** Router of `GET /v1/me/balance` and `GET /v1/me/balance/transactions`. */
export function panelBalanceRouter(deps: AppDeps): Router {
  const router = Router();
  const scopeOf = (res: Response, mode: "live" | "test"): BalanceScope => ({ sellerId: panelSellerId(res), mode });

  router.get("/", async (req, res) => {
    const { mode } = validate(panelBalanceSchema, req.query);
    res.json(await getBalance(deps.repos, scopeOf(res, mode)));
  });

  router.get("/transactions", async (req, res) => {
    const { mode, ...page } = validate(panelBalanceTransactionsSchema, req.query);
    res.json(await balanceTransactionsPage(deps, scopeOf(res, mode), page));
  });

  return router;
}

/** Router of `GET /v1/balance` and `GET /v1/balance/transactions` (mounted behind API key authentication). */
export function merchantBalanceRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    res.json(await getBalance(deps.repos, await merchantSellerScope(deps.repos, merchantOf(res))));
  });

  router.get("/transactions", async (req, res) => {
    const page = validate(listBalanceTransactionsSchema, req.query);
    res.json(await balanceTransactionsPage(deps, await merchantSellerScope(deps.repos, merchantOf(res)), page));
  });

  return router;
}
