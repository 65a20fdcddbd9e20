/**
 * joi schemas of the event routes (DESIGN §5 "Merchant API").
 */
import Joi from "joi";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/events`: paging and an optional exact `type` (e.g. `transaction.paid`). */
export const listEventsSchema: Joi.ObjectSchema<ListQuery & { type?: string }> = listQuerySchema({
  type: Joi.string().min(1).max(64),
});
