/**
 * The merchant API's Pix Automático recurrences (DESIGN §14): create (with `Idempotency-Key`), read, list, cancel, set
 * a variable cycle's amount, and in test mode the payer's answers. Mounted behind API key authentication and the
 * per-key rate limit.
 */
import { Router } from "express";
import type { Recurrence } from "@lm/db";
import {
  cancelRecurrence,
  createCycleCharge,
  createRecurrence,
  findRecurrence,
  listRecurrences,
  simulateRecurrenceApproval,
  transactionObject,
} from "@lm/domain";
import { serializeRecurrence } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import {
  createRecurrenceSchema,
  cycleChargeSchema,
  listRecurrencesSchema,
  simulateApprovalSchema,
} from "./recurrences.contract";

/** Router for `/v1/recurrences`. */
export function recurrencesRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (recurrence: Recurrence) => ({ status: 201, body: serializeRecurrence(recurrence) });

  router.post(
    "/",
    idempotent(deps, async (req, res, commitReply) => {
      const input = validate(createRecurrenceSchema, req.body);
      const recurrence = await createRecurrence(deps, merchantOf(res), input, {
        idempotencyKey: req.get("idempotency-key"),
        reply: (written) => commitReply(created(written)),
      });
      return created(recurrence);
    }),
  );

  router.get("/", async (req, res) => {
    const page = validate(listRecurrencesSchema, req.query);
    const scope = merchantOf(res);
    res.json(
      await listPage(page, "recurrence", (args) => listRecurrences(deps.repos, scope, args), serializeRecurrence),
    );
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeRecurrence(await findRecurrence(deps.repos, merchantOf(res), req.params.id)));
  });

  router.post("/:id/cancel", async (req, res) => {
    res.json(serializeRecurrence(await cancelRecurrence(deps, merchantOf(res), req.params.id, "merchant")));
  });

  router.post("/:id/charges", async (req, res) => {
    const input = validate(cycleChargeSchema, req.body);
    const charge = await createCycleCharge(deps, merchantOf(res), req.params.id, input);
    res.status(201).json(transactionObject(charge, deps.now()));
  });

  router.post("/:id/simulate-approval", async (req, res) => {
    const { approve } = validate(simulateApprovalSchema, req.body);
    res.json(serializeRecurrence(await simulateRecurrenceApproval(deps, merchantOf(res), req.params.id, approve)));
  });

  router.post("/:id/simulate-payer-cancellation", async (req, res) => {
    res.json(serializeRecurrence(await cancelRecurrence(deps, merchantOf(res), req.params.id, "payer")));
  });

  return router;
}
