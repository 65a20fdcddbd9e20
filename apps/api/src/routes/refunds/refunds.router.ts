/**
 * Refunds of paid charges (DESIGN §7 "Refunds"): create (`Idempotency-Key` required, DESIGN §12 "Safer defaults"),
 * list a charge's, read one. Mounted behind API key authentication and the per-key rate limit.
 */
import { Router } from "express";
import type { Refund } from "@lm/db";
import { createRefund, findRefund, findTransaction, listRefunds } from "@lm/domain";
import { serializeRefund } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { createRefundSchema } from "./refunds.contract";
import { listRefundsSchema } from "./refunds.contract";

/** Router of `POST|GET /v1/transactions/{id}/refunds` (mounted at `/v1/transactions`). */
export function transactionRefundsRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (refund: Refund) => ({ status: 201, body: serializeRefund(refund) });

  router.post(
    "/:id/refunds",
    idempotent(
      deps,
      async (req, res, commitReply) => {
        const input = validate(createRefundSchema, req.body);
        const refund = await createRefund(deps, merchantOf(res), String(req.params.id), input, {
          reply: (written) => commitReply(created(written)),
        });
        return created(refund);
      },
      { requiredFor: "refund" },
    ),
  );

  router.get("/:id/refunds", async (req, res) => {
    const page = validate(listRefundsSchema, req.query);
    const scope = merchantOf(res);
    const charge = await findTransaction(deps.repos, scope, req.params.id);
    res.json(
      await listPage(page, "refund", (args) => listRefunds(deps.repos, scope, charge.id, args), serializeRefund),
    );
  });

  return router;
}

/** Router of `GET /v1/refunds/{id}` (mounted at `/v1/refunds`). */
export function refundsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/:id", async (req, res) => {
    res.json(serializeRefund(await findRefund(deps.repos, merchantOf(res), req.params.id)));
  });
  return router;
}
