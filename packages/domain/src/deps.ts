/**
 * What the use cases that write state and enqueue work need. The API's and the worker's dependencies both satisfy
 * it, so one use case serves an HTTP request, a job and an operator alike.
 */
import type { Config } from "@lm/config";
import type { Repositories } from "@lm/db";
import type { Logger } from "@lm/logging";
import type { Mailer } from "@lm/mail";
import type { Producer } from "@lm/queue";

/**
 * Dependencies of a use case. The domain reaches the database only through `repos`, the repositories of `@lm/repos` bound
 * once (it writes no statement, no Prisma query, and names no client), and Redis only through `producer`.
 */
export interface UseCaseDeps {
  config: Config;
  /** Every repository, and the unit of work (`repos.transaction`). */
  repos: Repositories;
  /** Enqueues jobs after commit (DESIGN §1 "Write, then enqueue"). */
  producer: Pick<Producer, "enqueue" | "enqueueBulk">;
  logger: Logger;
  /** Mail to people (the owners of a seller told of a dispute, among others). */
  mailer: Mailer;
  /** Current time; tests inject their own. */
  now: () => Date;
}

/** Who is calling the merchant API: the API key's store and mode (DESIGN §3); nothing crosses either. */
export interface MerchantScope {
  storeId: string;
  mode: "live" | "test";
}
