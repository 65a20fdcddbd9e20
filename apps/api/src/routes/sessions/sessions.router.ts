/**
 * The user's own sessions (SPEC `GET /v1/me/sessions`, `DELETE /v1/me/sessions/{id}`): the live ones, with the
 * current one marked, and revocation by public id (`ses_` + 32 hex) or uuid. Revoking needs a recent step-up while
 * the seller's `account` toggle is on (DESIGN §3).
 */
import { Router } from "express";
import { listActiveSessions, notFound, parseSessionReference, revokeSession } from "@lm/domain";
import { serializeSession, type SessionList } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelAuth, requireStepUp } from "../../http/auth";

/** Router of `/v1/me/sessions`. */
export function sessionsRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    const auth = panelAuth(res);
    const sessions = await listActiveSessions(deps.repos, auth.user.id, deps.now());
    res.json({ data: sessions.map((s) => serializeSession(s, auth.session.id)) } satisfies SessionList);
  });

  router.delete("/:id", requireStepUp(deps, "account"), async (req, res) => {
    const sessionId = parseSessionReference(String(req.params.id));
    if (sessionId === null) throw notFound("session");
    await revokeSession(deps.repos, { userId: panelAuth(res).user.id, sessionId, now: deps.now() });
    res.status(204).end();
  });

  return router;
}
