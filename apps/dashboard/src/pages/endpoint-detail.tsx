/**
 * One webhook endpoint as its receiver's developer wants it (DESIGN §15): the 7-day success rate per day, its
 * deliveries filtered by status and event type (each with the request sent and the answer), resend, recovery of a
 * time range, ping; and its settings: enable or disable, pause or resume, its delivery controls (ordering, rate limit,
 * custom headers: DESIGN §16), rotate the secret (shown once), delete.
 */
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { del, patch, post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type {
  EventType,
  ListPage,
  RotatedWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointStats,
  WebhookRecovery,
} from "../api/types";
import { DeliveriesTable } from "../components/deliveries-table";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { Pager, usePagedList } from "../components/paged-list";
import { StatusBadge } from "../components/status-badge";
import { EndpointCredential } from "../components/secret-once";
import { SuccessChart } from "../components/success-chart";
import { isoToSaoPauloInput, saoPauloInputToIso } from "../i18n/format";
import { useI18n } from "../i18n/i18n";

/** Delivery statuses the list filters by. */
const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "dead"] as const;

/** The recovery dialog: a window of São Paulo time, at most 14 days back. */
function RecoverDialog({ endpointId, onClose }: { endpointId: string; onClose: () => void }) {
  const { t } = useI18n();
  const now = new Date().toISOString();
  const [since, setSince] = useState(isoToSaoPauloInput(new Date(Date.now() - 86_400_000).toISOString()));
  const [until, setUntil] = useState(isoToSaoPauloInput(now));
  const recover = useApiAction(
    () =>
      post<WebhookRecovery>(`/v1/me/webhook-endpoints/${endpointId}/recover`, {
        since: saoPauloInputToIso(since),
        until: saoPauloInputToIso(until),
      }),
    [`/v1/me/webhook-endpoints/${endpointId}`],
  );
  return (
    <Dialog title={t("recover.title")} onClose={onClose}>
      {recover.data === undefined ? (
        <form onSubmit={submitted(() => recover.mutate(undefined))}>
          <p>{t("recover.explain")}</p>
          <Field
            label={t("recover.since")}
            type="datetime-local"
            required
            value={since}
            onChange={(event) => setSince(event.target.value)}
          />
          <Field
            label={t("recover.until")}
            type="datetime-local"
            required
            value={until}
            onChange={(event) => setUntil(event.target.value)}
          />
          <ErrorMessage error={recover.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={recover.isPending}>
              {t("recover.submit")}
            </button>
          </div>
        </form>
      ) : (
        <p role="status">{t("recover.done", { events: recover.data.events })}</p>
      )}
    </Dialog>
  );
}

/** The dialog rotating the secret, then showing the new one once. */
function RotateDialog({ endpointId, onClose }: { endpointId: string; onClose: () => void }) {
  const { t, dateTime } = useI18n();
  const rotate = useApiAction(
    () => post<RotatedWebhookEndpoint>(`/v1/me/webhook-endpoints/${endpointId}/rotate-secret`),
    [`/v1/me/webhook-endpoints/${endpointId}`],
  );
  return (
    <Dialog title={t("webhooks.rotate")} onClose={onClose}>
      {rotate.data === undefined ? (
        <form onSubmit={submitted(() => rotate.mutate(undefined))}>
          <p>{t("webhooks.rotateExplain")}</p>
          <ErrorMessage error={rotate.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={rotate.isPending}>
              {t("webhooks.rotate")}
            </button>
          </div>
        </form>
      ) : (
        <>
          <EndpointCredential endpoint={rotate.data} />
          <p>{t("webhooks.previousUntil", { until: dateTime(rotate.data.previous_secret_expires_at) })}</p>
        </>
      )}
    </Dialog>
  );
}

/**
 * The dialog changing the endpoint's delivery controls (DESIGN §16): ordering, rate limit, and custom headers (the
 * API shows their values masked, so a header is set anew or removed, never edited in place).
 */
function ControlsDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useI18n();
  const [ordering, setOrdering] = useState(endpoint.ordering);
  const [rateLimit, setRateLimit] = useState(endpoint.rate_limit === null ? "" : String(endpoint.rate_limit));
  const [headerName, setHeaderName] = useState("");
  const [headerValue, setHeaderValue] = useState("");
  const [removed, setRemoved] = useState<string[]>([]);
  const save = useApiAction(
    () => {
      const headers: Record<string, string | null> = Object.fromEntries(removed.map((name) => [name, null]));
      if (headerName !== "") headers[headerName] = headerValue;
      return patch<WebhookEndpoint>(`/v1/me/webhook-endpoints/${endpoint.id}`, {
        ordering,
        rate_limit: rateLimit === "" ? null : Number(rateLimit),
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
      });
    },
    [`/v1/me/webhook-endpoints`],
    onClose,
  );
  return (
    <Dialog title={t("controls.title")} onClose={onClose}>
      <form onSubmit={submitted(() => save.mutate(undefined))}>
        <label>
          {t("controls.ordering")}
          <select value={ordering} onChange={(event) => setOrdering(event.target.value as typeof ordering)}>
            <option value="none">{t("controls.orderingNone")}</option>
            <option value="fifo">{t("controls.orderingFifo")}</option>
          </select>
        </label>
        <Field
          label={t("controls.rateLimit")}
          hint={t("controls.rateLimitHint")}
          type="number"
          min={1}
          max={1000}
          value={rateLimit}
          onChange={(event) => setRateLimit(event.target.value)}
        />
        <fieldset>
          <legend>{t("controls.headers")}</legend>
          {Object.entries(endpoint.headers)
            .filter(([name]) => !removed.includes(name))
            .map(([name, masked]) => (
              <p key={name}>
                <code>
                  {name}: {masked}
                </code>{" "}
                <button type="button" onClick={() => setRemoved([...removed, name])}>
                  {t("controls.removeHeader", { name })}
                </button>
              </p>
            ))}
          <Field
            label={t("controls.headerName")}
            maxLength={64}
            value={headerName}
            onChange={(event) => setHeaderName(event.target.value)}
          />
          <Field
            label={t("controls.headerValue")}
            maxLength={1024}
            required={headerName !== ""}
            value={headerValue}
            onChange={(event) => setHeaderValue(event.target.value)}
          />
        </fieldset>
        <ErrorMessage error={save.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {t("common.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The deliveries of the endpoint, filtered by status and event type, read again every few seconds. */
function EndpointDeliveries({ endpointId }: { endpointId: string }) {
  const { t, label } = useI18n();
  const [status, setStatus] = useState("");
  const [eventType, setEventType] = useState("");
  const catalog = useApiQuery<ListPage<EventType>>("/v1/me/event-types");
  const list = usePagedList<WebhookDelivery>(
    `/v1/me/webhook-endpoints/${endpointId}/deliveries`,
    { status: status === "" ? undefined : status, event_type: eventType === "" ? undefined : eventType },
    { refetchInterval: 3_000 },
  );
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">{t("deliveries.title")}</h2>
      <form className="filters" role="search" onSubmit={submitted(() => undefined)}>
        <label>
          {t("common.status")}
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">{t("common.all")}</option>
            {DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {label(`status.${value}`, value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("deliveries.eventType")}
          <select value={eventType} onChange={(event) => setEventType(event.target.value)}>
            <option value="">{t("common.all")}</option>
            <option value="ping">ping</option>
            {catalog.data?.data.map((type) => (
              <option key={type.id} value={type.id}>
                {type.id}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage error={list.query.error} />
      <DeliveriesTable deliveries={list.items} />
      <Pager newer={list.newer} older={list.older} />
    </section>
  );
}

/** The endpoint page. */
export function EndpointDetailPage() {
  const { t, dateTime } = useI18n();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<"recover" | "rotate" | "controls" | "delete" | null>(null);
  const endpoint = useApiQuery<WebhookEndpoint>(`/v1/me/webhook-endpoints/${id}`);
  const stats = useApiQuery<WebhookEndpointStats>(
    `/v1/me/webhook-endpoints/${id}/stats`,
    {},
    { refetchInterval: 10_000 },
  );
  const toggle = useApiAction(
    (change: { enabled: boolean } | { paused: boolean }) =>
      patch<WebhookEndpoint>(`/v1/me/webhook-endpoints/${id}`, change),
    ["/v1/me/webhook-endpoints"],
  );
  const ping = useApiAction(
    () => post<WebhookDelivery>(`/v1/me/webhook-endpoints/${id}/ping`),
    [`/v1/me/webhook-endpoints/${id}`],
  );
  const remove = useApiAction(
    () => del(`/v1/me/webhook-endpoints/${id}`),
    [],
    () => void navigate("/webhooks", { replace: true }),
  );

  if (endpoint.error !== null) return <ErrorMessage error={endpoint.error} />;
  if (endpoint.data === undefined) return <p role="status">{t("common.loading")}</p>;
  const data = endpoint.data;
  return (
    <>
      <PageTitle title={data.url} />
      <p>
        <StatusBadge status={data.enabled ? "enabled" : "disabled"} />{" "}
        {data.disabled_reason === "auto" ? t("webhooks.autoDisabled", { at: dateTime(data.auto_disabled_at) }) : null}
        {data.paused ? <StatusBadge status="paused" /> : null}
      </p>
      <div className="actions toolbar">
        <button type="button" onClick={() => ping.mutate(undefined)} disabled={ping.isPending}>
          {t("webhooks.ping")}
        </button>
        <button type="button" onClick={() => toggle.mutate({ enabled: !data.enabled })} disabled={toggle.isPending}>
          {data.enabled ? t("webhooks.disable") : t("webhooks.enable")}
        </button>
        <button type="button" onClick={() => toggle.mutate({ paused: !data.paused })} disabled={toggle.isPending}>
          {data.paused ? t("webhooks.resume") : t("webhooks.pause")}
        </button>
        <button type="button" onClick={() => setDialog("controls")}>
          {t("controls.title")}
        </button>
        <button type="button" onClick={() => setDialog("rotate")}>
          {t("webhooks.rotate")}
        </button>
        <button type="button" onClick={() => setDialog("recover")}>
          {t("recover.title")}
        </button>
        <button type="button" className="danger" onClick={() => setDialog("delete")}>
          {t("common.delete")}
        </button>
      </div>
      {ping.isSuccess ? <p role="status">{t("webhooks.pinged")}</p> : null}
      <ErrorMessage error={ping.error ?? toggle.error} />
      <dl className="fields">
        <div>
          <dt>{t("common.id")}</dt>
          <dd>{data.id}</dd>
        </div>
        <div>
          <dt>{t("common.mode")}</dt>
          <dd>{t(data.mode === "live" ? "mode.live" : "mode.test")}</dd>
        </div>
        <div>
          <dt>{t("webhooks.events")}</dt>
          <dd>{data.events.includes("*") ? t("webhooks.allEvents") : data.events.join(", ")}</dd>
        </div>
        <div>
          <dt>{t("webhooks.scheme")}</dt>
          <dd>{data.signature_scheme}</dd>
        </div>
        {data.public_key === null ? (
          <div>
            <dt>{t("webhooks.secretPrefix")}</dt>
            <dd>
              <code>whsec_{data.secret_prefix}…</code>
            </dd>
          </div>
        ) : (
          <div>
            <dt>{t("webhooks.publicKey")}</dt>
            <dd>
              <code>{data.public_key}</code>
            </dd>
          </div>
        )}
        <div>
          <dt>{t("controls.ordering")}</dt>
          <dd>{data.ordering === "fifo" ? t("controls.orderingFifo") : t("controls.orderingNone")}</dd>
        </div>
        <div>
          <dt>{t("controls.rateLimit")}</dt>
          <dd>
            {data.rate_limit === null ? t("controls.noRateLimit") : t("controls.perSecond", { n: data.rate_limit })}
          </dd>
        </div>
        <div>
          <dt>{t("controls.headers")}</dt>
          <dd>
            {Object.keys(data.headers).length === 0
              ? t("controls.noHeaders")
              : Object.entries(data.headers).map(([name, masked]) => (
                  <code key={name}>
                    {name}: {masked}{" "}
                  </code>
                ))}
          </dd>
        </div>
      </dl>
      <section aria-labelledby="stats">
        <h2 id="stats">{t("stats.title")}</h2>
        <ErrorMessage error={stats.error} />
        {stats.data === undefined ? null : <SuccessChart stats={stats.data} />}
        {stats.data?.last_ping_at == null ? null : (
          <p>
            {t("stats.lastPing", {
              at: dateTime(stats.data.last_ping_at),
              outcome: stats.data.last_ping_succeeded ? t("status.succeeded") : t("status.failed"),
            })}
          </p>
        )}
      </section>
      <EndpointDeliveries endpointId={id} />
      {dialog === "recover" ? <RecoverDialog endpointId={id} onClose={() => setDialog(null)} /> : null}
      {dialog === "rotate" ? <RotateDialog endpointId={id} onClose={() => setDialog(null)} /> : null}
      {dialog === "controls" ? <ControlsDialog endpoint={data} onClose={() => setDialog(null)} /> : null}
      {dialog === "delete" ? (
        <Dialog title={t("webhooks.deleteTitle")} onClose={() => setDialog(null)}>
          <form onSubmit={submitted(() => remove.mutate(undefined))}>
            <p>{t("webhooks.deleteExplain", { url: data.url })}</p>
            <ErrorMessage error={remove.error} />
            <div className="actions">
              <button type="submit" className="danger" disabled={remove.isPending}>
                {t("common.delete")}
              </button>
            </div>
          </form>
        </Dialog>
      ) : null}
    </>
  );
}
