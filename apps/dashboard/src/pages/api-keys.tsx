/**
 * API keys (DESIGN §15): the store's active keys of the current mode; a new key (step-up always) and a rotation
 * (step-up always; the old key lives 24 h more), each shown once; revoking one at once.
 */
import { useState } from "react";
import { del, post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { ApiKey, CreatedApiKey, RotatedApiKey } from "../api/types";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { SecretOnce } from "../components/secret-once";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** The dialog creating a key of the current mode, then showing it once. */
function NewKey({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const { mode } = useMode();
  const [name, setName] = useState("");
  const create = useApiAction(() => post<CreatedApiKey>("/v1/me/api-keys", { name, mode }), ["/v1/me/api-keys"]);
  return (
    <Dialog title={t("apiKeys.new")} onClose={onClose}>
      {create.data === undefined ? (
        <form onSubmit={submitted(() => create.mutate(undefined))}>
          <Field
            label={t("apiKeys.name")}
            required
            maxLength={64}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <ErrorMessage error={create.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={create.isPending}>
              {t("apiKeys.create")}
            </button>
          </div>
        </form>
      ) : (
        <SecretOnce label={t("apiKeys.key")} value={create.data.key} />
      )}
    </Dialog>
  );
}

/** The dialog rotating `key`, then showing the new key once. */
function RotateKey({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const { t, dateTime } = useI18n();
  const rotate = useApiAction(() => post<RotatedApiKey>(`/v1/me/api-keys/${apiKey.id}/rotate`), ["/v1/me/api-keys"]);
  return (
    <Dialog title={t("apiKeys.rotateTitle", { name: apiKey.name })} onClose={onClose}>
      {rotate.data === undefined ? (
        <form onSubmit={submitted(() => rotate.mutate(undefined))}>
          <p>{t("apiKeys.rotateExplain")}</p>
          <ErrorMessage error={rotate.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={rotate.isPending}>
              {t("apiKeys.rotate")}
            </button>
          </div>
        </form>
      ) : (
        <>
          <SecretOnce label={t("apiKeys.key")} value={rotate.data.key} />
          <p>{t("apiKeys.oldUntil", { until: dateTime(rotate.data.old_key_revoke_at) })}</p>
        </>
      )}
    </Dialog>
  );
}

/** The dialog revoking `key` at once. */
function RevokeKey({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const { t } = useI18n();
  const revoke = useApiAction(() => del(`/v1/me/api-keys/${apiKey.id}`), ["/v1/me/api-keys"], onClose);
  return (
    <Dialog title={t("apiKeys.revokeTitle", { name: apiKey.name })} onClose={onClose}>
      <form onSubmit={submitted(() => revoke.mutate(undefined))}>
        <p>{t("apiKeys.revokeExplain")}</p>
        <ErrorMessage error={revoke.error} />
        <div className="actions">
          <button type="submit" className="danger" disabled={revoke.isPending}>
            {t("apiKeys.revoke")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The API keys page. */
export function ApiKeysPage() {
  const { t, dateTime } = useI18n();
  const { mode } = useMode();
  const [dialog, setDialog] = useState<{ kind: "new" } | { kind: "rotate" | "revoke"; key: ApiKey } | null>(null);
  const keys = useApiQuery<{ data: ApiKey[] }>("/v1/me/api-keys");
  const ofMode = keys.data?.data.filter((key) => key.mode === mode) ?? [];
  const close = () => setDialog(null);
  return (
    <>
      <PageTitle
        title={t("apiKeys.title")}
        actions={
          <button type="button" className="primary" onClick={() => setDialog({ kind: "new" })}>
            {t("apiKeys.new")}
          </button>
        }
      />
      <ErrorMessage error={keys.error} />
      {keys.data !== undefined && ofMode.length === 0 ? <p>{t("apiKeys.none")}</p> : null}
      <table>
        <caption className="visually-hidden">{t("apiKeys.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("apiKeys.name")}</th>
            <th scope="col">{t("apiKeys.prefix")}</th>
            <th scope="col">{t("common.created")}</th>
            <th scope="col">{t("apiKeys.lastUsed")}</th>
            <th scope="col">{t("apiKeys.revokeAt")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("common.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {ofMode.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.key_prefix}…</code>
              </td>
              <td>{dateTime(key.created_at)}</td>
              <td>{dateTime(key.last_used_at)}</td>
              <td>{dateTime(key.revoke_at)}</td>
              <td className="row-actions">
                <button type="button" onClick={() => setDialog({ kind: "rotate", key })}>
                  {t("apiKeys.rotate")}
                </button>
                <button type="button" className="danger" onClick={() => setDialog({ kind: "revoke", key })}>
                  {t("apiKeys.revoke")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {dialog?.kind === "new" ? <NewKey onClose={close} /> : null}
      {dialog?.kind === "rotate" ? <RotateKey apiKey={dialog.key} onClose={close} /> : null}
      {dialog?.kind === "revoke" ? <RevokeKey apiKey={dialog.key} onClose={close} /> : null}
    </>
  );
}
