/**
 * A limit on how many runs of a function go on at once across several BullMQ workers: the shards of the delivery
 * queue each have a worker (DESIGN §10 "Redis"), and `WORKER_CONCURRENCY` bounds the attempts a process runs in total,
 * not per shard. Each shard's worker may hold up to the whole limit, so a busy shard can use every slot while the
 * others are idle; jobs over the limit wait here, in arrival order, holding their BullMQ lock (renewed as for a running
 * job, and released to the stalled-job check if the process dies).
 */

/** Runs functions at most `limit` at a time. */
export interface ConcurrencyGate {
  /** Runs `task` once fewer than the limit run; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  running(): number;
}

/**
 * Creates a gate.
 * @param limit - tasks at once, at least 1
 */
export function createConcurrencyGate(limit: number): ConcurrencyGate {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async run(task) {
      if (running < limit) running += 1;
      // The slot is handed over by `release` without being freed, so no task can jump the queue in between.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    running: () => running,
  };
}
