/**
 * joi schemas of the event routes (DESIGN §5 "Merchant API").
 */
import Joi from "joi";
import type { EventFilters } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";

/**
 * Query of `GET /v1/events`: paging, an optional exact `type` (e.g. `transaction.paid`) and the polling window
 * `created_after` / `created_before` (ISO 8601 instants, exclusive; DESIGN §8 "Polling by time").
 */
export const listEventsSchema: Joi.ObjectSchema<ListQuery & EventFilters> = listQuerySchema({
  type: Joi.string().min(1).max(64),
  created_after: Joi.date().iso(),
  created_before: Joi.date().iso(),
});
