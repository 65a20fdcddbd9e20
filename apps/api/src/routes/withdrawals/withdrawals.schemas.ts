/**
 * joi schemas of the withdrawal routes (DESIGN §7 "Withdrawals"): the panel takes `mode` in the body of a write and
 * the query of a list (`test` by default).
 */
import Joi from "joi";
import type { CreateWithdrawalInput, TestWithdrawalInput, WithdrawalStatus } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { centavosAmount } from "../../http/amount";

const status = Joi.string().valid("pending", "processing", "completed", "failed");

/** Body of `POST /v1/me/withdrawals`; unknown fields refused. */
export const createWithdrawalSchema: Joi.ObjectSchema<CreateWithdrawalInput> = Joi.object({
  amount: centavosAmount().required(),
  payout_key_id: Joi.string().max(64).required(),
  mode: Joi.string().valid("live", "test").default("test"),
}).prefs({ stripUnknown: false });

/** Body of `POST /v1/withdrawals` (test API keys only, DESIGN §12); unknown fields refused. */
export const merchantCreateWithdrawalSchema: Joi.ObjectSchema<TestWithdrawalInput> = Joi.object({
  amount: centavosAmount().required(),
  payout_key_id: Joi.string().max(64),
}).prefs({ stripUnknown: false });

/** Query of `GET /v1/me/withdrawals`. */
export const panelListWithdrawalsSchema: Joi.ObjectSchema<
  ListQuery & { mode: "live" | "test"; status?: WithdrawalStatus }
> = listQuerySchema({ mode: Joi.string().valid("live", "test").default("test"), status });

/** Query of `GET /v1/withdrawals`. */
export const merchantListWithdrawalsSchema: Joi.ObjectSchema<ListQuery & { status?: WithdrawalStatus }> =
  listQuerySchema({ status });

/** Query of `GET /v1/ops/withdrawals`. */
export const opsListWithdrawalsSchema: Joi.ObjectSchema<ListQuery & { seller?: string; stuck?: boolean }> =
  listQuerySchema({
    seller: Joi.string().max(64),
    stuck: Joi.boolean(),
  });
