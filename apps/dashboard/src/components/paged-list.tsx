/**
 * Cursor paging of the API's lists (DESIGN §2 "Lists": newest first, `starting_after` / `ending_before`, `has_more`
 * in the direction asked): the current page of a list and the buttons to the newer and older pages.
 */
import { useState } from "react";
import { useApiQuery } from "../api/hooks";
import type { ListPage } from "../api/types";
import { useI18n } from "../i18n/i18n";

/** Items per page. */
const PAGE_SIZE = 20;

type Cursor = { starting_after?: string; ending_before?: string };

/** One page of `path` with `filters`; the cursor goes back to the newest page when the filters change. */
export function usePagedList<T extends { id: string }>(
  path: string,
  filters: Record<string, string | undefined>,
  options: { refetchInterval?: number } = {},
) {
  const filterKey = JSON.stringify(filters);
  const [cursor, setCursor] = useState<Cursor & { filterKey: string }>({ filterKey });
  const current: Cursor = cursor.filterKey === filterKey ? cursor : {};
  const query = useApiQuery<ListPage<T>>(
    path,
    { ...filters, starting_after: current.starting_after, ending_before: current.ending_before, limit: PAGE_SIZE },
    options,
  );
  const items = query.data?.data ?? [];
  const backwards = current.ending_before !== undefined;
  const hasMore = query.data?.has_more ?? false;
  const first = items[0];
  const last = items[items.length - 1];
  return {
    query,
    items,
    newer:
      (backwards ? hasMore : current.starting_after !== undefined) && first !== undefined
        ? () => setCursor({ ending_before: first.id, filterKey })
        : null,
    older:
      (backwards || hasMore) && last !== undefined ? () => setCursor({ starting_after: last.id, filterKey }) : null,
  };
}

/** The newer and older buttons of a paged list. */
export function Pager({ newer, older }: { newer: (() => void) | null; older: (() => void) | null }) {
  const { t } = useI18n();
  if (newer === null && older === null) return null;
  return (
    <div className="pager">
      <button type="button" onClick={newer ?? undefined} disabled={newer === null}>
        {t("list.newer")}
      </button>
      <button type="button" onClick={older ?? undefined} disabled={older === null}>
        {t("list.older")}
      </button>
    </div>
  );
}
