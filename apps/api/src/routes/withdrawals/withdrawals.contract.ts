/**
 * joi schemas of the withdrawal routes (DESIGN §7 "Withdrawals"): the panel takes `mode` in the body of a write and
 * the query of a list (`test` by default).
 */
import Joi from "joi";
import type { CreateWithdrawalInput, TestWithdrawalInput, WithdrawalStatus } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { centavosAmount } from "../../http/amount";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NO_API_KEY,
  NO_SELLER,
  NO_SESSION,
  PANEL_SESSION,
  noAcquirer,
} from "../../http/contract";
import { Withdrawal, WithdrawalList } from "@lm/wire";

const status = Joi.string().valid("pending", "processing", "completed", "failed");

/** Body of `POST /v1/me/withdrawals`; unknown fields refused. */
export const createWithdrawalSchema: Joi.ObjectSchema<CreateWithdrawalInput> = Joi.object({
  amount: centavosAmount().required().description("Centavos."),
  payout_key_id: Joi.string().max(64).required(),
  mode: Joi.string().valid("live", "test").default("test"),
}).prefs({ stripUnknown: false });

/** Body of `POST /v1/withdrawals` (test API keys only, DESIGN §12); unknown fields refused. */
export const merchantCreateWithdrawalSchema: Joi.ObjectSchema<TestWithdrawalInput> = Joi.object({
  amount: centavosAmount().required().description("Centavos."),
  payout_key_id: Joi.string()
    .max(64)
    .description("Default: the seller's CPF/CNPJ payout key (409 `invalid_state` when it has none)."),
}).prefs({ stripUnknown: false });

/** Query of `GET /v1/me/withdrawals`. */
export const panelListWithdrawalsSchema: Joi.ObjectSchema<
  ListQuery & { mode: "live" | "test"; status?: WithdrawalStatus }
> = listQuerySchema({
  mode: Joi.string().valid("live", "test").default("test").description("The withdrawals' mode."),
  status,
});

/** Query of `GET /v1/withdrawals`. */
export const merchantListWithdrawalsSchema: Joi.ObjectSchema<ListQuery & { status?: WithdrawalStatus }> =
  listQuerySchema({ status });

/** Query of `GET /v1/ops/withdrawals`. */
export const opsListWithdrawalsSchema: Joi.ObjectSchema<ListQuery & { seller?: string; stuck?: boolean }> =
  listQuerySchema({
    // Its shape is checked by the route, whose message names the prefix; a joi pattern would word it otherwise.
    seller: Joi.string().max(64).description("A seller id (`sel_…`); any other string is 400 `validation_failed`."),
    stuck: Joi.boolean(),
  });

/** Path of the routes under `{id}`: A withdrawal id; any other string is 404. */
export const withdrawalParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^wd_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A withdrawal id; any other string is 404."),
});

/** `createWithdrawal`. */
export const createWithdrawal = defineRoute({
  method: "post",
  path: "/v1/me/withdrawals",
  operationId: "createWithdrawal",
  tag: "Payout keys and withdrawals",
  summary: "Withdraw to a payout key",
  description:
    "Always needs a live step-up. Checked in this order, in the database transaction of the debit: `withdrawals_locked`, `kyc_required` (live), `resource_not_found` (payout key), `payout_key_cooling_off` (a key added less than 24 h ago, other than a CPF/CNPJ key, which is always the seller's own document), `acquirer_not_configured`, `insufficient_funds` (also whenever `available` is negative after a dispute, until payments repay it). The worker hands it to the acquirer (`withdrawal.processing`); the acquirer's notification completes it (`withdrawal.completed`) or fails it (`withdrawal.failed`, a `withdrawal_reversal` puts the amount back). In test mode the sandbox answers within seconds; an amount whose last two digits are 13 fails with `rejected_by_acquirer`.",
  security: PANEL_SESSION,
  headers: ["IdempotencyKeyRequired"],
  body: createWithdrawalSchema,
  replies: {
    201: {
      description:
        "The withdrawal, `pending`; the amount left `available` for `reserved` and `withdrawal.created` is emitted.",
      schema: Withdrawal,
      headers: ["IdempotentReplayed"],
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body or a parameter is invalid, or the `Idempotency-Key` header is missing (`param` `Idempotency-Key`: send a unique key per withdrawal) or malformed; `param` names the field. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (always needed). `withdrawals_locked`: `withdrawals_locked_until` is ahead (2FA was turned off, recovered, or enrolled again after being turned off, less than 24 h ago). `payout_key_cooling_off`: the payout key was added less than 24 h ago and is not a CPF/CNPJ key; the message says from when it takes withdrawals. `kyc_required`: `live` without approved KYC.",
      codes: ["permission_denied", "mfa_required", "withdrawals_locked", "payout_key_cooling_off", "kyc_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, deleted, or another seller's payout key.",
      codes: ["resource_not_found"],
    },
    409: {
      description:
        "`insufficient_funds`: `available` is lower than the amount (always while it is negative after a dispute). `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["insufficient_funds", "idempotency_key_in_progress"],
    },
    503: noAcquirer(
      "no acquirer is able to send payouts in this mode (live mode without an activated bank, or the mode's active bank has a profile without payouts, `bcb`)",
    ),
  },
});

/** `listPanelWithdrawals`. */
export const listPanelWithdrawals = defineRoute({
  method: "get",
  path: "/v1/me/withdrawals",
  operationId: "listPanelWithdrawals",
  tag: "Payout keys and withdrawals",
  summary: "The seller's withdrawals in one mode",
  security: PANEL_SESSION,
  query: panelListWithdrawalsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: WithdrawalList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
  },
});

/** `getPanelWithdrawal`. */
export const getPanelWithdrawal = defineRoute({
  method: "get",
  path: "/v1/me/withdrawals/{id}",
  operationId: "getPanelWithdrawal",
  tag: "Payout keys and withdrawals",
  summary: "A withdrawal of the seller (either mode)",
  security: PANEL_SESSION,
  params: withdrawalParams,
  replies: {
    200: { description: "The withdrawal.", schema: Withdrawal },
  },
  errors: {
    401: NO_SESSION,
    403: NO_SELLER,
    404: {
      description: "`resource_not_found`: unknown, malformed, or another seller's.",
      codes: ["resource_not_found"],
    },
  },
});

/** `listWithdrawals`. */
export const listWithdrawals = defineRoute({
  method: "get",
  path: "/v1/withdrawals",
  operationId: "listWithdrawals",
  tag: "Balance and withdrawals",
  summary: "The withdrawals of the key's seller and mode",
  security: API_KEY,
  query: merchantListWithdrawalsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: WithdrawalList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});

/** `createTestWithdrawal`. */
export const createTestWithdrawal = defineRoute({
  method: "post",
  path: "/v1/withdrawals",
  operationId: "createTestWithdrawal",
  tag: "Balance and withdrawals",
  summary: "Withdraw test balance (test keys only)",
  description:
    "Test keys only: what `lm trigger withdrawal.completed` uses. The panel's withdrawal rules apply (balance, withdrawal lock, payout key cooling-off) in test mode; without `payout_key_id` the withdrawal goes to the seller's CPF/CNPJ payout key, its own document. Live withdrawals are requested in the panel (`POST /v1/me/withdrawals`), behind a step-up: an API key alone can never empty a live balance. `Idempotency-Key` is required.",
  security: API_KEY,
  headers: ["IdempotencyKeyRequired"],
  body: merchantCreateWithdrawalSchema,
  replies: {
    201: {
      description:
        "The withdrawal, `pending`; the amount left `available` for `reserved` and `withdrawal.created` is emitted.",
      schema: Withdrawal,
      headers: ["IdempotentReplayed"],
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body or a parameter is invalid, or the `Idempotency-Key` header is missing (`param` `Idempotency-Key`: send a unique key per withdrawal) or malformed; `param` names the field. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    403: {
      description:
        "`test_mode_only`: a live key. `withdrawals_locked`: `withdrawals_locked_until` is ahead. `payout_key_cooling_off`: the named payout key was added less than 24 h ago and is not a CPF/CNPJ key.",
      codes: ["test_mode_only", "withdrawals_locked", "payout_key_cooling_off"],
    },
    404: {
      description: "`resource_not_found`: unknown, deleted, or another seller's payout key.",
      codes: ["resource_not_found"],
    },
    409: {
      description:
        "`insufficient_funds`: `available` is lower than the amount. `invalid_state`: no `payout_key_id` and the seller has no CPF/CNPJ payout key (add one in the panel). `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["insufficient_funds", "invalid_state", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    503: noAcquirer(
      "no acquirer is able to send payouts in this mode (live mode without an activated bank, or the mode's active bank has a profile without payouts, `bcb`)",
    ),
  },
});

/** `getWithdrawal`. */
export const getWithdrawal = defineRoute({
  method: "get",
  path: "/v1/withdrawals/{id}",
  operationId: "getWithdrawal",
  tag: "Balance and withdrawals",
  summary: "A withdrawal",
  security: API_KEY,
  params: withdrawalParams,
  replies: {
    200: { description: "The withdrawal.", schema: Withdrawal },
  },
  errors: {
    401: NO_API_KEY,
    404: {
      description: "`resource_not_found`: unknown, malformed, or of another seller or mode.",
      codes: ["resource_not_found"],
    },
    429: KEY_RATE_LIMITED,
  },
});

/** `listOpsWithdrawals`. */
export const listOpsWithdrawals = defineRoute({
  method: "get",
  path: "/v1/ops/withdrawals",
  operationId: "listOpsWithdrawals",
  tag: "Operations",
  summary: "Withdrawals of every seller, or the stuck ones",
  description:
    "`stuck=true`: only withdrawals still `pending` or `processing` 10 minutes after their last change (the sandbox answers in seconds; a live acquirer's notification may be missing). The command line's `withdrawal:list --seller <sel_>` shows the same per seller.",
  security: PANEL_SESSION,
  query: opsListWithdrawalsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: WithdrawalList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: {
      description: "`permission_denied`: not an operator (role `ops`), or the `Origin` check failed.",
      codes: ["permission_denied"],
    },
  },
});
