/**
 * The merchant API's test clocks (DESIGN §14, test keys only): create, read, list, and advance (its job runs the
 * recurrence engine up to the new time). Mounted behind API key authentication and the per-key rate limit.
 */
import { Router } from "express";
import { advanceTestClock, createTestClock, findTestClock, listTestClocks } from "@lm/domain";
import { serializeTestClock } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { advanceTestClockSchema, createTestClockSchema, listTestClocksSchema } from "./test-clocks.contract";

/** Router for `/v1/test-clocks`. */
export function testClocksRouter(deps: AppDeps): Router {
  const router = Router();

  router.post("/", async (req, res) => {
    const { frozen_time } = validate(createTestClockSchema, req.body);
    res.status(201).json(serializeTestClock(await createTestClock(deps, merchantOf(res), frozen_time)));
  });

  router.get("/", async (req, res) => {
    const page = validate(listTestClocksSchema, req.query);
    const scope = merchantOf(res);
    res.json(await listPage(page, "testClock", (args) => listTestClocks(deps.repos, scope, args), serializeTestClock));
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeTestClock(await findTestClock(deps.repos, merchantOf(res), req.params.id)));
  });

  router.post("/:id/advance", async (req, res) => {
    const { frozen_time } = validate(advanceTestClockSchema, req.body);
    res.json(serializeTestClock(await advanceTestClock(deps, merchantOf(res), req.params.id, frozen_time)));
  });

  return router;
}
