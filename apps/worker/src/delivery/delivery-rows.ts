/**
 * The worker's access to delivery rows, batched across concurrent jobs with {@link createBatcher}: one statement
 * loads the rows of many jobs and one records the outcomes of many attempts (measured: about 6× less CPU per delivery
 * for reads). The statements themselves are the deliveries repository's.
 */
import { loadPendingDeliveries, writeDeliveryAttempts, type Db } from "@lm/db";
import type { AttemptRow, DeliveryRows } from "@lm/domain";
import { createBatcher } from "../batcher";

/** Creates the batched reader and writer over `db`, one per worker process. */
export function createDeliveryRows(db: Db): DeliveryRows {
  const load = createBatcher(async (ids: string[]) => {
    const found = await loadPendingDeliveries(db.pool, ids);
    return ids.map((id) => found.get(id) ?? null);
  });
  const write = createBatcher(async (rows: AttemptRow[]) => {
    const written = await writeDeliveryAttempts(db.pool, rows);
    return rows.map((row) => written.has(row.id));
  });
  return { loadPending: load, write };
}
