/**
 * Sign-in (SPEC `POST /v1/me/auth/sign-in/email`), then, with 2FA on, the second factor: a code of the authenticator
 * (`verify-totp`, optionally trusting this device) or a backup code (`verify-backup-code`). On success the seller
 * goes where they were going (`?next=`), or home.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { post } from "../api/client";
import type { SignInResult } from "../api/types";
import { AuthFrame } from "../components/auth-frame";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { useI18n } from "../i18n/i18n";

/** Where to go after signing in: `next` when it is a path of the dashboard, else home. */
function nextPath(next: string | null): string {
  return next !== null && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** The sign-in page. */
export function SignInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(true);
  const [challenge, setChallenge] = useState(false);
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [code, setCode] = useState("");
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const done = async () => {
    client.clear();
    await navigate(nextPath(params.get("next")), { replace: true });
  };
  const attempt = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const signIn = () =>
    attempt(async () => {
      const result = await post<SignInResult>("/v1/me/auth/sign-in/email", { email, password, rememberMe });
      if ("twoFactorRedirect" in result) setChallenge(true);
      else await done();
    });
  const verify = () =>
    attempt(async () => {
      if (useBackupCode) await post("/v1/me/auth/two-factor/verify-backup-code", { code: code.trim() });
      else await post("/v1/me/auth/two-factor/verify-totp", { code: code.trim(), trustDevice });
      await done();
    });

  if (challenge) {
    return (
      <AuthFrame>
        <PageTitle title={t("auth.twoFactorTitle")} />
        <form onSubmit={submitted(() => void verify())}>
          <p>{useBackupCode ? t("auth.backupCodeExplain") : t("auth.totpExplain")}</p>
          <Field
            key={useBackupCode ? "backup" : "totp"}
            label={useBackupCode ? t("auth.backupCode") : t("auth.totpCode")}
            inputMode={useBackupCode ? "text" : "numeric"}
            autoComplete="one-time-code"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          {useBackupCode ? null : (
            <label className="check">
              <input type="checkbox" checked={trustDevice} onChange={(event) => setTrustDevice(event.target.checked)} />
              {t("auth.trustDevice")}
            </label>
          )}
          <ErrorMessage error={error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t("auth.verify")}
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setUseBackupCode(!useBackupCode);
                setCode("");
              }}
            >
              {useBackupCode ? t("auth.useTotp") : t("auth.useBackupCode")}
            </button>
          </div>
          <p>
            <Link to="/two-factor/recovery">{t("auth.lostTwoFactor")}</Link>
          </p>
        </form>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame>
      <PageTitle title={t("auth.signInTitle")} />
      <form onSubmit={submitted(() => void signIn())}>
        <Field
          label={t("auth.email")}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Field
          label={t("auth.password")}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label className="check">
          <input type="checkbox" checked={rememberMe} onChange={(event) => setRememberMe(event.target.checked)} />
          {t("auth.rememberMe")}
        </label>
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t("auth.signIn")}
          </button>
        </div>
        <p>
          <Link to="/forgot-password">{t("auth.forgotPassword")}</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
