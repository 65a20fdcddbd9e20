/**
 * The merchant API's reusable QR codes (DESIGN §13): create (with `Idempotency-Key`), read, list, deactivate, and in
 * test mode simulate a payment. Mounted behind API key authentication and the per-key rate limit.
 */
import { Router } from "express";
import type { QrCode } from "@lm/db";
import { createQrCode, deactivateQrCode, findQrCode, listQrCodes, simulateQrCodePayment } from "@lm/domain";
import { serializeQrCode } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { createQrCodeSchema, listQrCodesSchema, simulateQrCodePaymentSchema } from "./qr-codes.contract";

/** Router for `/v1/qr-codes`. */
export function qrCodesRouter(deps: AppDeps): Router {
  const router = Router();
  const created = (code: QrCode) => ({ status: 201, body: serializeQrCode(code) });

  router.post(
    "/",
    idempotent(deps, async (req, res, commitReply) => {
      const input = validate(createQrCodeSchema, req.body);
      const code = await createQrCode(deps, merchantOf(res), input, {
        reply: (written) => commitReply(created(written)),
      });
      return created(code);
    }),
  );

  router.get("/", async (req, res) => {
    const page = validate(listQrCodesSchema, req.query);
    const scope = merchantOf(res);
    res.json(await listPage(page, "qrCode", (args) => listQrCodes(deps.repos, scope, args), serializeQrCode));
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeQrCode(await findQrCode(deps.repos, merchantOf(res), req.params.id)));
  });

  router.post("/:id/deactivate", async (req, res) => {
    res.json(serializeQrCode(await deactivateQrCode(deps, merchantOf(res), req.params.id)));
  });

  router.post("/:id/simulate-payment", async (req, res) => {
    const { amount } = validate(simulateQrCodePaymentSchema, req.body ?? {});
    const code = await simulateQrCodePayment(deps, merchantOf(res), req.params.id, amount);
    res.status(202).json(serializeQrCode(code));
  });

  return router;
}
