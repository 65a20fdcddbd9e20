/** Two read-only lists (DESIGN §15): the disputes of the current mode and the seller's notification feed. */
import { Link } from "react-router";
import type { Dispute, Notification } from "../api/types";
import { ErrorMessage } from "../components/error-message";
import { PageTitle } from "../components/page-title";
import { Pager, usePagedList } from "../components/paged-list";
import { StatusBadge } from "../components/status-badge";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** The disputes page: money the payer's bank took back under the MED (DESIGN §11). */
export function DisputesPage() {
  const { t, money, dateTime } = useI18n();
  const { mode } = useMode();
  const list = usePagedList<Dispute>("/v1/me/disputes", { mode });
  return (
    <>
      <PageTitle title={t("disputes.title")} />
      <p className="hint">{t("disputes.explain")}</p>
      <ErrorMessage error={list.query.error} />
      {list.query.data?.data.length === 0 ? <p>{t("disputes.none")}</p> : null}
      <table>
        <caption className="visually-hidden">{t("disputes.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("common.created")}</th>
            <th scope="col">{t("disputes.charge")}</th>
            <th scope="col">{t("common.amount")}</th>
            <th scope="col">{t("disputes.reason")}</th>
            <th scope="col">{t("common.status")}</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((dispute) => (
            <tr key={dispute.id}>
              <td>{dateTime(dispute.created_at)}</td>
              <td>
                <Link to={`/charges/${dispute.transaction_id}`}>
                  <code>{dispute.transaction_id}</code>
                </Link>
              </td>
              <td className="number">{money(dispute.amount)}</td>
              <td>{dispute.reason ?? "—"}</td>
              <td>
                <StatusBadge status={dispute.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager newer={list.newer} older={list.older} />
    </>
  );
}

/** The notifications page: the seller's feed, newest first. */
export function NotificationsPage() {
  const { t, dateTime } = useI18n();
  const list = usePagedList<Notification>("/v1/me/notifications", {});
  return (
    <>
      <PageTitle title={t("notifications.title")} />
      <ErrorMessage error={list.query.error} />
      {list.query.data?.data.length === 0 ? <p>{t("notifications.none")}</p> : null}
      <ol className="feed">
        {list.items.map((item) => (
          <li key={item.id}>
            <h2>{item.title}</h2>
            <p>{item.message}</p>
            <small>
              {dateTime(item.created_at)} · <code>{item.type}</code>
            </small>
          </li>
        ))}
      </ol>
      <Pager newer={list.newer} older={list.older} />
    </>
  );
}
