/**
 * Webhook endpoints of the current mode (DESIGN §15): each with its 7-day success rate, and a new one (step-up
 * always), whose secret is shown once (or, signed with Ed25519, whose public key is shown: DESIGN §16).
 */
import { useState } from "react";
import { Link } from "react-router";
import { post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { CreatedWebhookEndpoint, EventType, ListPage, WebhookEndpoint } from "../api/types";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { EndpointCredential } from "../components/secret-once";
import { StatusBadge } from "../components/status-badge";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** The event types an endpoint subscribes to: all (`*`) or some of the catalog's. */
export function EventTypesPicker({ value, onChange }: { value: string[]; onChange: (types: string[]) => void }) {
  const { t } = useI18n();
  const catalog = useApiQuery<ListPage<EventType>>("/v1/me/event-types");
  const all = value.includes("*");
  return (
    <fieldset className="event-types">
      <legend>{t("webhooks.events")}</legend>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(event) => onChange(event.target.checked ? ["*"] : [])} />
        {t("webhooks.allEvents")}
      </label>
      {all
        ? null
        : catalog.data?.data.map((type) => (
            <label key={type.id} className="check" title={type.description}>
              <input
                type="checkbox"
                checked={value.includes(type.id)}
                onChange={(event) =>
                  onChange(event.target.checked ? [...value, type.id] : value.filter((id) => id !== type.id))
                }
              />
              <code>{type.id}</code>
            </label>
          ))}
      <ErrorMessage error={catalog.error} />
    </fieldset>
  );
}

/** The dialog adding an endpoint, then showing its secret once. */
function NewEndpoint({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const { mode } = useMode();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["*"]);
  const [scheme, setScheme] = useState("stripe");
  const create = useApiAction(
    () =>
      post<CreatedWebhookEndpoint>("/v1/me/webhook-endpoints", {
        url,
        events,
        mode,
        description,
        signature_scheme: scheme,
      }),
    ["/v1/me/webhook-endpoints"],
  );
  const created = create.data;
  return (
    <Dialog title={t("webhooks.new")} onClose={onClose}>
      {created === undefined ? (
        <form onSubmit={submitted(() => create.mutate(undefined))}>
          <Field
            label={t("webhooks.url")}
            type="url"
            required
            placeholder="https://example.com/webhooks"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
          <Field
            label={t("common.description")}
            maxLength={500}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
          <EventTypesPicker value={events} onChange={setEvents} />
          <label>
            {t("webhooks.scheme")}
            <select value={scheme} onChange={(event) => setScheme(event.target.value)}>
              <option value="stripe">stripe (X-Signature)</option>
              <option value="standard_webhooks">Standard Webhooks</option>
              <option value="standard_webhooks_ed25519">Standard Webhooks (Ed25519)</option>
            </select>
          </label>
          <ErrorMessage error={create.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={create.isPending || events.length === 0}>
              {t("webhooks.create")}
            </button>
          </div>
        </form>
      ) : (
        <>
          <EndpointCredential endpoint={created} />
          <p>
            <Link to={`/webhooks/${created.id}`}>{t("webhooks.open")}</Link>
          </p>
        </>
      )}
    </Dialog>
  );
}

/** The webhooks page. */
export function WebhooksPage() {
  const { t } = useI18n();
  const { mode } = useMode();
  const [creating, setCreating] = useState(false);
  const endpoints = useApiQuery<ListPage<WebhookEndpoint>>("/v1/me/webhook-endpoints", { mode, limit: 100 });
  return (
    <>
      <PageTitle
        title={t("webhooks.title")}
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("webhooks.new")}
          </button>
        }
      />
      <p className="hint">{t("webhooks.explain")}</p>
      <ErrorMessage error={endpoints.error} />
      {endpoints.data?.data.length === 0 ? <p>{t("webhooks.none")}</p> : null}
      <table>
        <caption className="visually-hidden">{t("webhooks.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("webhooks.url")}</th>
            <th scope="col">{t("webhooks.events")}</th>
            <th scope="col">{t("webhooks.secretPrefix")}</th>
            <th scope="col">{t("common.status")}</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.data?.data.map((endpoint) => (
            <tr key={endpoint.id}>
              <td>
                <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                {endpoint.description === null || endpoint.description === "" ? null : (
                  <small className="hint"> {endpoint.description}</small>
                )}
              </td>
              <td>{endpoint.events.includes("*") ? t("webhooks.allEvents") : endpoint.events.join(", ")}</td>
              <td>
                <code>whsec_{endpoint.secret_prefix}…</code>
              </td>
              <td>
                <StatusBadge status={endpoint.enabled ? "enabled" : "disabled"} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {creating ? <NewEndpoint onClose={() => setCreating(false)} /> : null}
    </>
  );
}
