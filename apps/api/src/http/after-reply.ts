/**
 * Work that must not shape the reply's timing: requests that answer the same whether an account exists
 * (`request-password-reset`, 2FA `recovery/request`) do their look-ups, bcrypt and mail after answering.
 */
import type { Logger } from "@lm/logging";

/**
 * Runs `task` once the current request's reply has been handed to Node; a failure is logged, never thrown.
 * @param what - names the task in the log line
 */
export function afterReply(logger: Logger, what: string, task: () => Promise<void>): void {
  setImmediate(() => {
    task().catch((err: unknown) => logger.error(`${what} failed`, { err }));
  });
}
