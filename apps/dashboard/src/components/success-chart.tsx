/**
 * An endpoint's success rate over the last 7 days (DESIGN §15), one bar per São Paulo day: the share of its finished
 * attempts that succeeded; a day without attempts is a grey line on the axis. The same figures follow as a table, for
 * screen readers and for the exact numbers.
 */
import type { WebhookEndpointStats } from "../api/types";
import { useI18n } from "../i18n/i18n";

const WIDTH = 420;
const HEIGHT = 140;
const AXIS = 20;

/** `rate` (0..1) as a whole percentage. */
function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** The bar chart and table of `stats.days`. */
export function SuccessChart({ stats }: { stats: WebhookEndpointStats }) {
  const { t, day } = useI18n();
  const bar = WIDTH / stats.days.length;
  const summary =
    stats.success_rate === null
      ? t("stats.noDeliveries")
      : t("stats.summary", { rate: percent(stats.success_rate), total: stats.total_deliveries });
  return (
    <figure className="chart">
      <figcaption>{summary}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`} aria-hidden="true">
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
        {stats.days.map((entry, index) => {
          const rate = entry.success_rate;
          // A day without attempts is a line on the axis: no rate, not a rate of 0.
          const height = rate === null ? 2 : Math.max(4, rate * HEIGHT);
          const className =
            rate === null ? "bar-empty" : rate >= 0.95 ? "bar-good" : rate >= 0.5 ? "bar-fair" : "bar-bad";
          return (
            <g key={entry.date}>
              <rect x={index * bar + 4} y={HEIGHT - height} width={bar - 8} height={height} className={className} />
              <text x={index * bar + bar / 2} y={HEIGHT + 15} textAnchor="middle" className="tick">
                {day(entry.date)}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="compact">
        <caption className="visually-hidden">{t("stats.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("stats.day")}</th>
            {stats.days.map((entry) => (
              <th scope="col" key={entry.date}>
                {day(entry.date)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t("stats.rate")}</th>
            {stats.days.map((entry) => (
              <td key={entry.date}>{entry.success_rate === null ? "—" : percent(entry.success_rate)}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">{t("stats.attempts")}</th>
            {stats.days.map((entry) => (
              <td key={entry.date}>{entry.total_deliveries}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
