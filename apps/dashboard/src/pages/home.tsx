/** Home (DESIGN §15): the balance of the current mode, the latest charges and the latest events. */
import { Link } from "react-router";
import { useApiQuery } from "../api/hooks";
import type { Balance, EventEnvelope, ListPage, Transaction } from "../api/types";
import { ErrorMessage } from "../components/error-message";
import { PageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** The home page. */
export function HomePage() {
  const { t, money, dateTime } = useI18n();
  const { mode } = useMode();
  const balance = useApiQuery<Balance>("/v1/me/balance", { mode });
  const charges = useApiQuery<ListPage<Transaction>>("/v1/me/transactions", { mode, limit: 5 });
  const events = useApiQuery<ListPage<EventEnvelope>>("/v1/me/events", { mode, limit: 5 });
  return (
    <>
      <PageTitle title={t("home.title")} />
      <section aria-labelledby="balance-heading" className="tiles">
        <h2 id="balance-heading" className="visually-hidden">
          {t("balance.title")}
        </h2>
        <ErrorMessage error={balance.error} />
        <div className="tile">
          <span>{t("balance.available")}</span>
          <strong data-testid="balance-available">{balance.data ? money(balance.data.available) : "…"}</strong>
        </div>
        <div className="tile">
          <span>{t("balance.reserved")}</span>
          <strong>{balance.data ? money(balance.data.reserved) : "…"}</strong>
        </div>
      </section>
      <section aria-labelledby="recent-charges">
        <h2 id="recent-charges">{t("home.recentCharges")}</h2>
        <ErrorMessage error={charges.error} />
        {charges.data?.data.length === 0 ? <p>{t("charges.none")}</p> : null}
        <table>
          <thead>
            <tr>
              <th scope="col">{t("common.created")}</th>
              <th scope="col">{t("common.description")}</th>
              <th scope="col">{t("common.amount")}</th>
              <th scope="col">{t("common.status")}</th>
            </tr>
          </thead>
          <tbody>
            {charges.data?.data.map((charge) => (
              <tr key={charge.id}>
                <td>
                  <Link to={`/charges/${charge.id}`}>{dateTime(charge.created_at)}</Link>
                </td>
                <td>{charge.description ?? charge.id}</td>
                <td className="number">{money(charge.amount)}</td>
                <td>
                  <StatusBadge status={charge.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <Link to="/charges">{t("home.allCharges")}</Link>
        </p>
      </section>
      <section aria-labelledby="recent-events">
        <h2 id="recent-events">{t("home.recentEvents")}</h2>
        <ErrorMessage error={events.error} />
        {events.data?.data.length === 0 ? <p>{t("events.none")}</p> : null}
        <ul className="plain">
          {events.data?.data.map((event) => (
            <li key={event.id}>
              <code>{event.type}</code> · {dateTime(event.created_at)} · <code>{event.id}</code>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
