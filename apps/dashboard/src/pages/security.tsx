/**
 * Security and account (DESIGN §15): the seller's profile, the open sessions (revoke), two-factor authentication
 * (turn on, new backup codes, turn off), the step-up toggles, and the store's postback secret (rotated and shown once).
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { del, patch, post, put } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { PostbackSecretInfo, RotatedPostbackSecret, Seller, Session, StepUpPrefs } from "../api/types";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { SecretOnce } from "../components/secret-once";
import { StatusBadge } from "../components/status-badge";
import { useI18n } from "../i18n/i18n";

/** The seller's profile; the trade name and contact email can change (step-up when `account` is on). */
function Profile() {
  const { t, dateTime } = useI18n();
  const seller = useApiQuery<Seller>("/v1/me/seller");
  const [tradeName, setTradeName] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);
  const save = useApiAction(
    () =>
      patch<Seller>("/v1/me/seller", {
        ...(tradeName === null ? {} : { trade_name: tradeName.trim() === "" ? null : tradeName.trim() }),
        ...(email === null ? {} : { email }),
      }),
    ["/v1/me/seller"],
  );
  if (seller.data === undefined) return <ErrorMessage error={seller.error} />;
  const data = seller.data;
  return (
    <section aria-labelledby="profile">
      <h2 id="profile">{t("security.profile")}</h2>
      <dl className="fields">
        <div>
          <dt>{t("security.legalName")}</dt>
          <dd>{data.legal_name}</dd>
        </div>
        <div>
          <dt>{t("security.document")}</dt>
          <dd>
            {data.document_type.toUpperCase()} {data.document_masked}
          </dd>
        </div>
        <div>
          <dt>{t("security.kyc")}</dt>
          <dd>
            <StatusBadge status={`kyc_${data.status}`} />
          </dd>
        </div>
        {data.withdrawals_locked_until === null ? null : (
          <div>
            <dt>{t("security.withdrawalsLocked")}</dt>
            <dd>{dateTime(data.withdrawals_locked_until)}</dd>
          </div>
        )}
      </dl>
      <form
        onSubmit={submitted(() => {
          if (tradeName !== null || email !== null) save.mutate(undefined);
        })}
      >
        <Field
          label={t("security.tradeName")}
          maxLength={200}
          value={tradeName ?? data.trade_name ?? ""}
          onChange={(event) => setTradeName(event.target.value)}
        />
        <Field
          label={t("security.email")}
          type="email"
          value={email ?? data.email ?? ""}
          onChange={(event) => setEmail(event.target.value)}
        />
        <ErrorMessage error={save.error} />
        {save.isSuccess ? <p role="status">{t("common.saved")}</p> : null}
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {t("common.save")}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The user's open sessions; any but this one can be ended. */
function Sessions() {
  const { t, dateTime } = useI18n();
  const sessions = useApiQuery<{ data: Session[] }>("/v1/me/sessions");
  const revoke = useApiAction((id: string) => del(`/v1/me/sessions/${id}`), ["/v1/me/sessions"]);
  return (
    <section aria-labelledby="sessions">
      <h2 id="sessions">{t("security.sessions")}</h2>
      <ErrorMessage error={sessions.error ?? revoke.error} />
      <table>
        <caption className="visually-hidden">{t("security.sessions")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("security.device")}</th>
            <th scope="col">{t("security.ip")}</th>
            <th scope="col">{t("security.lastSeen")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("common.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.data.map((session) => (
            <tr key={session.id}>
              <td>{session.user_agent ?? "—"}</td>
              <td>{session.ip_address ?? "—"}</td>
              <td>{dateTime(session.last_seen_at)}</td>
              <td>
                {session.current ? (
                  t("security.thisSession")
                ) : (
                  <button type="button" onClick={() => revoke.mutate(session.id)}>
                    {t("security.endSession")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A dialog asking for the password before a 2FA change: new backup codes, or turning 2FA off. */
function PasswordDialog({ action, onClose }: { action: "backup" | "disable"; onClose: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const run = useApiAction(
    () =>
      action === "backup"
        ? post<{ backupCodes: string[] }>("/v1/me/auth/two-factor/generate-backup-codes", { password })
        : post<{ backupCodes?: string[] }>("/v1/me/auth/two-factor/disable", { password }),
    [],
    // Turning 2FA off ends every session, this one too.
    () => {
      if (action === "disable") void navigate("/sign-in", { replace: true });
    },
  );
  const codes = run.data?.backupCodes;
  return (
    <Dialog
      title={action === "backup" ? t("security.newBackupCodes") : t("security.disableTwoFactor")}
      onClose={onClose}
    >
      {codes !== undefined ? (
        <SecretOnce label={t("twoFactor.backupCodes")} value={codes.join(" ")} />
      ) : (
        <form onSubmit={submitted(() => run.mutate(undefined))}>
          {action === "disable" ? <p>{t("security.disableExplain")}</p> : null}
          <Field
            label={t("auth.password")}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <ErrorMessage error={run.error} />
          <div className="actions">
            <button type="submit" className={action === "disable" ? "danger" : "primary"} disabled={run.isPending}>
              {t("common.confirm")}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Two-factor authentication and the step-up toggles. */
function TwoFactor() {
  const { t } = useI18n();
  const [dialog, setDialog] = useState<"backup" | "disable" | null>(null);
  const prefs = useApiQuery<StepUpPrefs>("/v1/me/security/step-up-prefs");
  const setPrefs = useApiAction(
    (next: StepUpPrefs) => put<StepUpPrefs>("/v1/me/security/step-up-prefs", next),
    ["/v1/me/security/step-up-prefs"],
  );
  return (
    <section aria-labelledby="two-factor">
      <h2 id="two-factor">{t("security.twoFactor")}</h2>
      <p>{t("security.twoFactorExplain")}</p>
      <div className="actions toolbar">
        <Link className="button" to="/two-factor/setup">
          {t("security.setUpTwoFactor")}
        </Link>
        <button type="button" onClick={() => setDialog("backup")}>
          {t("security.newBackupCodes")}
        </button>
        <button type="button" className="danger" onClick={() => setDialog("disable")}>
          {t("security.disableTwoFactor")}
        </button>
      </div>
      <fieldset>
        <legend>{t("security.stepUpPrefs")}</legend>
        <ErrorMessage error={prefs.error ?? setPrefs.error} />
        {prefs.data === undefined
          ? null
          : (["webhook", "account"] as const).map((name) => (
              <label key={name} className="check">
                <input
                  type="checkbox"
                  checked={prefs.data[name]}
                  disabled={setPrefs.isPending}
                  onChange={(event) => setPrefs.mutate({ ...prefs.data, [name]: event.target.checked })}
                />
                {t(name === "webhook" ? "security.stepUpWebhook" : "security.stepUpAccount")}
              </label>
            ))}
      </fieldset>
      {dialog === null ? null : <PasswordDialog action={dialog} onClose={() => setDialog(null)} />}
    </section>
  );
}

/** The store's postback secret: its prefix, and a rotation that shows the new one once. */
function PostbackSecret() {
  const { t, dateTime } = useI18n();
  const [rotating, setRotating] = useState(false);
  const info = useApiQuery<PostbackSecretInfo>("/v1/me/postback-secret");
  const rotate = useApiAction(
    () => post<RotatedPostbackSecret>("/v1/me/postback-secret/rotate"),
    ["/v1/me/postback-secret"],
  );
  return (
    <section aria-labelledby="postback">
      <h2 id="postback">{t("security.postbackSecret")}</h2>
      <p>{t("security.postbackExplain")}</p>
      <ErrorMessage error={info.error} />
      <p>
        {info.data?.prefix == null
          ? t("security.noPostbackSecret")
          : t("security.postbackPrefix", { prefix: `whsec_${info.data.prefix}…`, at: dateTime(info.data.rotated_at) })}
      </p>
      <button type="button" onClick={() => setRotating(true)}>
        {t("security.rotatePostback")}
      </button>
      {rotating ? (
        <Dialog title={t("security.rotatePostback")} onClose={() => setRotating(false)}>
          {rotate.data === undefined ? (
            <form onSubmit={submitted(() => rotate.mutate(undefined))}>
              <p>{t("security.rotatePostbackExplain")}</p>
              <ErrorMessage error={rotate.error} />
              <div className="actions">
                <button type="submit" className="primary" disabled={rotate.isPending}>
                  {t("common.confirm")}
                </button>
              </div>
            </form>
          ) : (
            <SecretOnce label={t("security.postbackSecret")} value={rotate.data.secret} />
          )}
        </Dialog>
      ) : null}
    </section>
  );
}

/** The security page. */
export function SecurityPage() {
  const { t } = useI18n();
  return (
    <>
      <PageTitle title={t("security.title")} />
      <Profile />
      <TwoFactor />
      <Sessions />
      <PostbackSecret />
    </>
  );
}
