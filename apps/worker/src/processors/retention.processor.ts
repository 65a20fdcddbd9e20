/**
 * `retention` job (repeatable, hourly, DESIGN §10 "Retention"): makes the history tables' weeks ahead, drops the weeks
 * past `RETENTION_DAYS` and deletes the expired short-lived rows ({@link applyRetention}), and logs what it removed.
 * A run that meets a busy table (lock timeout) fails; the next hour's run does what is left.
 */
import { applyRetention } from "@lm/domain";
import type { Processor } from ".";

/** Applies retention as of the worker's clock. */
export const retentionProcessor: Processor<"retention"> = async (deps) => {
  const report = await applyRetention(deps, deps.now());
  deps.logger.info("retention applied", {
    removed: report.removed,
    partitions_created: report.partitionsCreated,
    partitions_dropped: report.partitionsDropped,
  });
};
