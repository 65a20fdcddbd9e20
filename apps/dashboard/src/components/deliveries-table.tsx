/**
 * Delivery attempts as a receiver reads them (DESIGN §15): each row opens to the request that was sent (headers and
 * body, `GET /v1/me/webhook-deliveries/{id}`) and the receiver's answer (status and the first 1 KB of its body),
 * and can be sent again (`POST /v1/me/webhook-deliveries/{id}/resend`, a new chain at attempt 1).
 */
import { useState } from "react";
import { Link } from "react-router";
import { post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { WebhookDelivery, WebhookDeliveryDetail } from "../api/types";
import { useI18n } from "../i18n/i18n";
import { ErrorMessage } from "./error-message";
import { StatusBadge } from "./status-badge";

/** The request and the answer of one attempt, read when the row is opened. */
function DeliveryDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const detail = useApiQuery<WebhookDeliveryDetail>(`/v1/me/webhook-deliveries/${id}`);
  if (detail.error !== null) return <ErrorMessage error={detail.error} />;
  if (detail.data === undefined) return <p role="status">{t("common.loading")}</p>;
  const { request } = detail.data;
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  let body = request.body;
  try {
    body = JSON.stringify(JSON.parse(request.body), null, 2);
  } catch {
    // Shown as sent.
  }
  return (
    <div className="delivery-detail">
      <h4>{t("deliveries.request")}</h4>
      <p>
        <code>POST {request.url}</code>
      </p>
      <pre tabIndex={0} aria-label={t("deliveries.requestHeaders")}>
        {headers}
      </pre>
      <pre tabIndex={0} aria-label={t("deliveries.requestBody")}>
        {body}
      </pre>
      <h4>{t("deliveries.response")}</h4>
      <p>
        {detail.data.response_status === null
          ? t("deliveries.noResponse", { error: detail.data.error ?? "—" })
          : `HTTP ${detail.data.response_status}`}
        {detail.data.duration_ms === null ? null : ` · ${detail.data.duration_ms} ms`}
      </p>
      {detail.data.response_body_excerpt === null ? null : (
        <pre tabIndex={0} aria-label={t("deliveries.responseBody")}>
          {detail.data.response_body_excerpt}
        </pre>
      )}
    </div>
  );
}

/** One attempt: its summary row and, when opened, its detail. */
function DeliveryRow({ delivery, showDestination }: { delivery: WebhookDelivery; showDestination: boolean }) {
  const { t, dateTime } = useI18n();
  const [open, setOpen] = useState(false);
  const resend = useApiAction(
    () => post<WebhookDelivery>(`/v1/me/webhook-deliveries/${delivery.id}/resend`),
    ["/v1/me/webhook-"],
  );
  const destination = delivery.destination;
  return (
    <>
      <tr>
        <td>
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            aria-controls={`detail-${delivery.id}`}
            onClick={() => setOpen(!open)}
          >
            {dateTime(delivery.attempted_at ?? delivery.scheduled_at)}
          </button>
        </td>
        <td>
          <code>{delivery.event_type}</code>
        </td>
        {showDestination ? (
          <td>
            {destination.type === "endpoint" ? (
              <Link to={`/webhooks/${destination.endpoint_id}`}>{t("deliveries.endpoint")}</Link>
            ) : (
              t("deliveries.postback")
            )}
          </td>
        ) : null}
        <td className="number">{delivery.attempt}</td>
        <td>
          <StatusBadge status={delivery.status} />
          {delivery.manual ? <small> {t("deliveries.manual")}</small> : null}
        </td>
        <td>{delivery.response_status ?? delivery.error ?? "—"}</td>
        <td>
          <button type="button" onClick={() => resend.mutate(undefined)} disabled={resend.isPending}>
            {resend.isSuccess ? t("deliveries.resent") : t("deliveries.resend")}
          </button>
          <ErrorMessage error={resend.error} />
        </td>
      </tr>
      {open ? (
        <tr id={`detail-${delivery.id}`}>
          <td colSpan={showDestination ? 7 : 6}>
            <DeliveryDetail id={delivery.id} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A table of delivery attempts, newest first. */
export function DeliveriesTable({
  deliveries,
  showDestination = false,
}: {
  deliveries: WebhookDelivery[];
  showDestination?: boolean;
}) {
  const { t } = useI18n();
  if (deliveries.length === 0) return <p>{t("deliveries.none")}</p>;
  return (
    <table className="deliveries">
      <caption className="visually-hidden">{t("deliveries.title")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("deliveries.when")}</th>
          <th scope="col">{t("deliveries.eventType")}</th>
          {showDestination ? <th scope="col">{t("deliveries.destination")}</th> : null}
          <th scope="col">{t("deliveries.attempt")}</th>
          <th scope="col">{t("common.status")}</th>
          <th scope="col">{t("deliveries.answer")}</th>
          <th scope="col">
            <span className="visually-hidden">{t("common.actions")}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} showDestination={showDestination} />
        ))}
      </tbody>
    </table>
  );
}
