/**
 * Group commit for the hot paths (the worker's delivery rows and payment settlement, the receipt's inbox jobs):
 * concurrent callers hand their items to a batcher, which runs them as one database statement or one queue round trip
 * per batch. While a batch is in flight the next one fills up, so batches grow with load and each item costs a
 * fraction of a statement instead of one (measured: about 6× less CPU per delivery for reads).
 */

/** Runs one batch; must return one result per item, in the items' order. */
export type BatchRunner<I, R> = (items: I[]) => Promise<R[]>;

/**
 * Returns a function that queues `item` for the next batch and resolves with its result. A batch starts when none is
 * in flight, `lingerMs` after the first item that finds none waiting (on the next turn of the event loop for 0), or as
 * soon as the one in flight ends; it holds at most `maxSize` items. If `run` rejects, every item of that batch rejects
 * with the same error.
 * @param options.maxSize - largest batch (default 100)
 * @param options.lingerMs - how long a batch waits for more items before it starts, ms (default 0): what an item may
 *   wait so that items arriving apart, not only at once, share a batch
 */
export function createBatcher<I, R>(
  run: BatchRunner<I, R>,
  options: { maxSize?: number; lingerMs?: number } = {},
): (item: I) => Promise<R> {
  const maxSize = options.maxSize ?? 100;
  const lingerMs = options.lingerMs ?? 0;
  let queued: Array<{ item: I; resolve: (result: R) => void; reject: (err: unknown) => void }> = [];
  let inFlight = false;
  let scheduled = false;

  const flush = async () => {
    scheduled = false;
    if (inFlight || queued.length === 0) return;
    inFlight = true;
    const batch = queued.slice(0, maxSize);
    queued = queued.slice(batch.length);
    try {
      const results = await run(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.resolve(results[i] as R));
    } catch (err) {
      for (const entry of batch) entry.reject(err);
    } finally {
      inFlight = false;
      if (queued.length > 0) void flush();
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      if (!inFlight && !scheduled) {
        scheduled = true;
        if (lingerMs > 0) setTimeout(() => void flush(), lingerMs);
        else setImmediate(() => void flush());
      }
    });
}
