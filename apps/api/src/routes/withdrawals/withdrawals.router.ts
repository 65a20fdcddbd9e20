/**
 * Withdrawals (DESIGN §7): request one in the panel (step-up always; `Idempotency-Key` required, DESIGN §12 "Safer
 * defaults") or, in test mode only, with an API key; list and read them in the panel and with an API key (the key's
 * seller and mode), and the operators' list of stuck ones.
 */
import { Router, type Request, type Response } from "express";
import {
  createTestWithdrawal,
  createWithdrawal,
  findSellerStore,
  findWithdrawal,
  isId,
  listWithdrawals,
  listWithdrawalsForOps,
  merchantSellerScope,
  validationFailed,
  type MerchantScope,
  type PageArgs,
} from "@lm/domain";
import type { WithdrawalWithPayoutKey } from "@lm/db";
import { serializeWithdrawal } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { requireStepUp, panelSellerId } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import {
  createWithdrawalSchema,
  merchantCreateWithdrawalSchema,
  merchantListWithdrawalsSchema,
  opsListWithdrawalsSchema,
  panelListWithdrawalsSchema,
} from "./withdrawals.contract";

/** The idempotency scope of a panel withdrawal: the seller's store, in the mode its body names. */
async function panelIdempotencyScope(deps: AppDeps, req: Request, res: Response): Promise<MerchantScope> {
  const store = await findSellerStore(deps.repos, panelSellerId(res));
  const body = req.body as { mode?: unknown } | undefined;
  return { storeId: store.id, mode: body?.mode === "live" ? "live" : "test" };
}

/** Router of `/v1/me/withdrawals` and `/v1/me/withdrawals/{id}`. */
export function panelWithdrawalsRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (withdrawal: WithdrawalWithPayoutKey) => ({ status: 201, body: serializeWithdrawal(withdrawal) });

  router.post(
    "/",
    requireStepUp(deps, "always"),
    idempotent(
      deps,
      async (req, res, commitReply) => {
        const input = validate(createWithdrawalSchema, req.body);
        const withdrawal = await createWithdrawal(deps, { sellerId: panelSellerId(res) }, input, {
          reply: (written) => commitReply(created(written)),
        });
        return created(withdrawal);
      },
      { scopeOf: (req, res) => panelIdempotencyScope(deps, req, res), requiredFor: "withdrawal" },
    ),
  );

  router.get("/", async (req, res) => {
    const { mode, status, ...page } = validate(panelListWithdrawalsSchema, req.query);
    const scope = { sellerId: panelSellerId(res), mode };
    res.json(
      await listPage(
        page,
        "withdrawal",
        (args) => listWithdrawals(deps.repos, scope, { status }, args),
        serializeWithdrawal,
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    res.json(
      serializeWithdrawal(await findWithdrawal(deps.repos, { sellerId: panelSellerId(res) }, String(req.params.id))),
    );
  });

  return router;
}

/**
 * Router of `POST /v1/withdrawals` (test keys only; `Idempotency-Key` required), `GET /v1/withdrawals` and
 * `GET /v1/withdrawals/{id}` (mounted behind API key authentication).
 */
export function merchantWithdrawalsRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (withdrawal: WithdrawalWithPayoutKey) => ({ status: 201, body: serializeWithdrawal(withdrawal) });

  router.post(
    "/",
    idempotent(
      deps,
      async (req, res, commitReply) => {
        const input = validate(merchantCreateWithdrawalSchema, req.body);
        const withdrawal = await createTestWithdrawal(deps, merchantOf(res), input, {
          reply: (written) => commitReply(created(written)),
        });
        return created(withdrawal);
      },
      { requiredFor: "withdrawal" },
    ),
  );

  router.get("/", async (req, res) => {
    const { status, ...page } = validate(merchantListWithdrawalsSchema, req.query);
    const scope = await merchantSellerScope(deps.repos, merchantOf(res));
    res.json(
      await listPage(
        page,
        "withdrawal",
        (args) => listWithdrawals(deps.repos, scope, { status }, args),
        serializeWithdrawal,
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    const scope = await merchantSellerScope(deps.repos, merchantOf(res));
    res.json(serializeWithdrawal(await findWithdrawal(deps.repos, scope, req.params.id)));
  });

  return router;
}

/** Router of `GET /v1/ops/withdrawals` (mounted behind the ops guard): `?stuck=true` lists the stuck ones. */
export function opsWithdrawalsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const { seller, stuck, ...page } = validate(opsListWithdrawalsSchema, req.query);
    if (seller !== undefined && !isId("seller", seller))
      throw validationFailed("seller must be a seller id (sel_...).", "seller");
    const fetch = (args: PageArgs) =>
      listWithdrawalsForOps(
        deps.repos,
        { ...(seller === undefined ? {} : { sellerId: seller }), stuck: stuck ?? false, now: deps.now() },
        args,
      );
    res.json(await listPage(page, "withdrawal", fetch, serializeWithdrawal));
  });
  return router;
}
