/**
 * Contracts of the terms routes.
 */
import { defineRoute, CROSS_SITE, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import Joi from "joi";

/** Body of `POST /v1/me/terms/accept`: the version of the terms the seller accepts. */
export const acceptTermsSchema = Joi.object<{ version: string }>({
  version: Joi.string().min(1).max(100).required().description("Must equal the current `TERMS_VERSION`."),
});

/** `acceptTerms`. */
export const acceptTerms = defineRoute({
  method: "post",
  path: "/v1/me/terms/accept",
  operationId: "acceptTerms",
  tag: "Account and sessions",
  summary: "Accept the current terms",
  security: PANEL_SESSION,
  body: acceptTermsSchema,
  replies: {
    204: { description: "Accepted." },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Also when `version` is not the current terms version.",
      codes: ["validation_failed"],
    },
    401: NO_SESSION,
    403: CROSS_SITE,
  },
});
