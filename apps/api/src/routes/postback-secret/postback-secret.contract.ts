/**
 * Contracts of the postback-secret routes.
 */
import { defineRoute, NO_SESSION, OWNERS_ONLY, PANEL_SESSION } from "../../http/contract";
import { PostbackSecretInfo, RotatedPostbackSecret } from "@lm/wire";

/** `getPostbackSecretInfo`. */
export const getPostbackSecretInfo = defineRoute({
  method: "get",
  path: "/v1/me/postback-secret",
  operationId: "getPostbackSecretInfo",
  tag: "API keys and postback secret",
  summary: "The store postback secret's info (never the secret)",
  security: PANEL_SESSION,
  replies: {
    200: { description: "The info.", schema: PostbackSecretInfo },
  },
  errors: {
    401: NO_SESSION,
    403: OWNERS_ONLY,
  },
});

/** `rotatePostbackSecret`. */
export const rotatePostbackSecret = defineRoute({
  method: "post",
  path: "/v1/me/postback-secret/rotate",
  operationId: "rotatePostbackSecret",
  tag: "API keys and postback secret",
  summary: "Generate a new store postback secret",
  description:
    "The first call creates the secret. The previous secret stops verifying postbacks at once (no grace window).",
  security: PANEL_SESSION,
  replies: {
    200: { description: "The new secret, shown once, and the info after the rotation.", schema: RotatedPostbackSecret },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `account` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
  },
});
