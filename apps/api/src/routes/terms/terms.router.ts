/**
 * Terms acceptance (SPEC `POST /v1/me/terms/accept`): the version must be the current `TERMS_VERSION`; the version
 * and the time are kept on the user.
 */
import { Router } from "express";
import { acceptTerms } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { panelAuth } from "../../http/auth";
import { validate } from "../../http/validate";
import { acceptTermsSchema } from "./terms.contract";

/** Router of `/v1/me/terms`. */
export function termsRouter(deps: AppDeps): Router {
  const router = Router();

  router.post("/accept", async (req, res) => {
    const { version } = validate(acceptTermsSchema, req.body);
    await acceptTerms(deps, { userId: panelAuth(res).user.id, version });
    res.status(204).end();
  });

  return router;
}
