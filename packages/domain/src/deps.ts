/**
 * What the use cases that write state and enqueue work need. The API's and the worker's dependencies both satisfy
 * it, so one use case serves an HTTP request, a job and an operator alike.
 */
import type { Config } from "@lm/config";
import type { Repositories } from "@lm/db";
import type { Logger } from "@lm/logging";
import type { Mailer } from "@lm/mail";
import type { PixApiClient, PixApiClientOptions } from "@lm/pix-api";
import type { Producer } from "@lm/queue";

/**
 * Dependencies of a use case. The domain reaches the database only through `repos`, the repositories of `@lm/db`
 * bound once (it writes no statement, no Prisma query, and names no client), and Redis only through `producer`.
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
  /**
   * Opens a client of a bank of the API Pix standard (OAuth2 and mutual TLS, DESIGN §9 "Transport"): the bank's HTTP
   * adapter, injected as the webhooks' `sendAttempt` is (the apps pass `@lm/pix-api`'s `createPixApiClient`). The
   * domain builds its options from an acquirer's row and keeps one client per row version.
   */
  connectBank: (options: PixApiClientOptions) => PixApiClient;
}

/** Who is calling the merchant API: the API key's store and mode (DESIGN §3); nothing crosses either. */
export interface MerchantScope {
  storeId: string;
  mode: "live" | "test";
}
