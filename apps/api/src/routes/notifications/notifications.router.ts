/**
 * The seller's panel feed: `GET /v1/me/notifications` (DESIGN §4 "a notification in the panel feed"), newest first,
 * cursor-paged. Operators have no seller and therefore no feed.
 */
import { Router } from "express";
import { listNotifications } from "@lm/domain";
import { serializeNotification } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelSellerId } from "../../http/auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { listNotificationsSchema } from "./notifications.contract";

/** Router of `/v1/me/notifications`. */
export function notificationsRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const sellerId = panelSellerId(res);
    const page = validate(listNotificationsSchema, req.query);
    res.json(
      await listPage(
        page,
        "notification",
        (args) => listNotifications(deps.repos, sellerId, args),
        serializeNotification,
      ),
    );
  });

  return router;
}
