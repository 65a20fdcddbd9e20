/**
 * joi schemas of the operators' inbox routes (DESIGN §5 "Inbound and ops").
 */
import Joi from "joi";
import type { InboxStatus } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/ops/inbox`: paging, an acquirer slug and a derived status. */
export const listInboxSchema: Joi.ObjectSchema<ListQuery & { acquirer?: string; status?: InboxStatus }> =
  listQuerySchema({
    acquirer: Joi.string().min(1).max(40),
    status: Joi.string().valid("pending", "processed", "failed"),
  });
