/**
 * Cursor paging over time-sortable ids (DESIGN §2 "Lists"): ids are prefix + ULID, so ordering by id is ordering by
 * creation and a cursor is simply an id. The API's list helper builds a {@link PageArgs}; repositories spread it into
 * their `findMany`.
 */

/** `findMany` arguments of one page: the id bound of the cursor, the order and how many rows to read. */
export interface PageArgs {
  /** `{lt}` after a `starting_after` cursor, `{gt}` before an `ending_before` one. */
  id?: { lt: string } | { gt: string };
  /** `desc` (newest first) normally; `asc` when walking back from `ending_before`. */
  orderBy: { id: "asc" | "desc" };
  /** Rows to read: the page size plus one, to learn whether more exist. */
  take: number;
}
