/**
 * Contracts of the sessions routes.
 */
import Joi from "joi";
import { SessionList } from "@lm/wire";
import { defineRoute, NO_SESSION, PANEL_SESSION } from "../../http/contract";

/** Path of the routes under `{id}`: `ses_` + the session uuid's 32 hex digits, or the uuid itself; anything else is 404. */
export const sessionParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .required()
    .description("`ses_` + the session uuid's 32 hex digits, or the uuid itself; anything else is 404."),
});

/** `listSessions`. */
export const listSessions = defineRoute({
  method: "get",
  path: "/v1/me/sessions",
  operationId: "listSessions",
  tag: "Account and sessions",
  summary: "The user's active sessions",
  security: PANEL_SESSION,
  replies: {
    200: { description: "Every live session, the current one marked.", schema: SessionList },
  },
  errors: {
    401: NO_SESSION,
  },
});

/** `revokeSession`. */
export const revokeSession = defineRoute({
  method: "delete",
  path: "/v1/me/sessions/{id}",
  operationId: "revokeSession",
  tag: "Account and sessions",
  summary: "Revoke one of the user's sessions",
  security: PANEL_SESSION,
  params: sessionParams,
  replies: {
    204: { description: "Revoked." },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. `mfa_required`: no live step-up on this session while the seller's `account` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, ended, or another user's session.",
      codes: ["resource_not_found"],
    },
  },
});
