/** A status as a coloured badge with its translated name (`status.<value>`, or the value itself without one). */
import { useI18n } from "../i18n/i18n";

/** The badge of `status`. */
export function StatusBadge({ status }: { status: string }) {
  const { label } = useI18n();
  return <span className={`badge badge-${status}`}>{label(`status.${status}`, status)}</span>;
}
