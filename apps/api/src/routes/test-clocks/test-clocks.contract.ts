/**
 * Contracts of the test clock routes (DESIGN §14, Stripe's test clocks), and their joi schemas.
 */
import Joi from "joi";
import { TestClock, TestClockList } from "@lm/wire";
import { listQuerySchema, type ListQuery } from "../../http/list";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  TEST_KEYS_ONLY,
} from "../../http/contract";

/** The tag of these routes in the reference. */
const TAG = "Recurrences";

/** A clock's time: an ISO 8601 instant. */
const frozenTime = Joi.date().iso().min("2000-01-01T00:00:00Z").max("2100-01-01T00:00:00Z").prefs({ convert: true });

/** Body of `POST /v1/test-clocks`. */
export const createTestClockSchema: Joi.ObjectSchema<{ frozen_time: Date }> = Joi.object({
  frozen_time: frozenTime.required().description("The clock's time, an ISO 8601 instant (years 2000 to 2099)."),
});

/** Body of `POST /v1/test-clocks/{id}/advance`. */
export const advanceTestClockSchema: Joi.ObjectSchema<{ frozen_time: Date }> = Joi.object({
  frozen_time: frozenTime
    .required()
    .description("The time to advance to: after the clock's, at most 2 years after it."),
});

/** Query of `GET /v1/test-clocks`. */
export const listTestClocksSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Path of the routes under `{id}`. */
export const testClockParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^clk_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A test clock id; any other string is 404."),
});

/** `createTestClock`. */
export const createTestClock = defineRoute({
  method: "post",
  path: "/v1/test-clocks",
  operationId: "createTestClock",
  tag: TAG,
  summary: "Create a test clock",
  description:
    "Test keys only. A clock frozen at `frozen_time`: the test recurrences created with it (`test_clock`) run on its time, and move only when it is advanced, so a year of cycles, failures and retries runs in seconds.",
  security: API_KEY,
  body: createTestClockSchema,
  replies: { 201: { description: "The clock, `ready`.", schema: TestClock } },
  errors: { 400: INVALID_REQUEST, 401: NO_API_KEY, 403: TEST_KEYS_ONLY, 429: KEY_RATE_LIMITED },
});

/** `listTestClocks`. */
export const listTestClocks = defineRoute({
  method: "get",
  path: "/v1/test-clocks",
  operationId: "listTestClocks",
  tag: TAG,
  summary: "List test clocks",
  description: "Test keys only. Unknown query parameters are refused (400).",
  security: API_KEY,
  query: listTestClocksSchema,
  replies: { 200: { description: "A page of the key's store, newest first.", schema: TestClockList } },
  errors: { 400: INVALID_REQUEST, 401: NO_API_KEY, 403: TEST_KEYS_ONLY, 429: KEY_RATE_LIMITED },
});

/** `getTestClock`. */
export const getTestClock = defineRoute({
  method: "get",
  path: "/v1/test-clocks/{id}",
  operationId: "getTestClock",
  tag: TAG,
  summary: "Read a test clock",
  description: "Test keys only. Poll it after an advance until `status` is `ready`.",
  security: API_KEY,
  params: testClockParams,
  replies: { 200: { description: "The clock.", schema: TestClock } },
  errors: { 401: NO_API_KEY, 403: TEST_KEYS_ONLY, 404: NOT_IN_STORE_MODE, 429: KEY_RATE_LIMITED },
});

/** `advanceTestClock`. */
export const advanceTestClock = defineRoute({
  method: "post",
  path: "/v1/test-clocks/{id}/advance",
  operationId: "advanceTestClock",
  tag: TAG,
  summary: "Advance a test clock",
  description:
    "Test keys only. Forward only, at most 2 years at a time. The clock reads `advancing` while the worker runs the recurrence engine for its recurrences, step by step, up to `frozen_time`: cycles sent, debited or failed, retries, ends, expiries, each with its events; then `ready` at the new time. Read the clock until it is `ready`.",
  security: API_KEY,
  params: testClockParams,
  body: advanceTestClockSchema,
  replies: { 200: { description: "The clock, `advancing`.", schema: TestClock } },
  errors: {
    400: {
      description:
        "`validation_failed` (`param` `frozen_time`): not after the clock's time, or more than 2 years after it.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: { description: "`invalid_state`: the clock is advancing already.", codes: ["invalid_state"] },
    429: KEY_RATE_LIMITED,
  },
});
