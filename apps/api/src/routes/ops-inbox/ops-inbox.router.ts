/**
 * The operators' inbox of inbound notifications (DESIGN §5 "Inbound and ops"): list, detail (with the stored raw
 * body and headers) and reprocess. Operators only: `routes/index.ts` mounts it behind the ops guard.
 */
import { Router } from "express";
import { findInboxItem, listInboxItems, reprocessInboxItem } from "@lm/domain";
import { type Empty, serializeInboxItem, serializeInboxItemDetail } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { listInboxSchema } from "./ops-inbox.contract";

/** Router for `/v1/ops/inbox`. */
export function opsInboxRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { acquirer, status, ...page } = validate(listInboxSchema, req.query);
    res.json(
      await listPage(
        page,
        "inboxItem",
        (args) => listInboxItems(deps.repos, { acquirer, status }, args),
        serializeInboxItem,
      ),
    );
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeInboxItemDetail(await findInboxItem(deps.repos, req.params.id)));
  });

  router.post("/:id/reprocess", async (req, res) => {
    await reprocessInboxItem(deps, req.params.id);
    res.status(202).json({} satisfies Empty);
  });

  return router;
}
