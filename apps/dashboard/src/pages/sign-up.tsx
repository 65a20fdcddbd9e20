/**
 * Sign-up from an invite link (`/dashboard/sign-up?invite=<token>`, mailed by `invite:create`): the invite is
 * checked first (`GET /v1/me/auth/invites/{token}`, which gives the invited email), then the owner chooses a name and
 * a password and accepts the terms (`POST /v1/me/auth/sign-up/email`), and goes on to turn 2FA on.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { get, post } from "../api/client";
import type { InviteCheck } from "../api/types";
import { AuthFrame } from "../components/auth-frame";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { useI18n } from "../i18n/i18n";

/** The sign-up page. */
export function SignUpPage() {
  const { t, dateTime } = useI18n();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get("invite") ?? "";
  const invite = useQuery({
    queryKey: ["invite", token],
    queryFn: () => get<InviteCheck>(`/v1/me/auth/invites/${encodeURIComponent(token)}`),
    enabled: token !== "",
    retry: false,
  });
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const signUp = async (email: string) => {
    setBusy(true);
    setError(null);
    try {
      await post("/v1/me/auth/sign-up/email", {
        name,
        email,
        password,
        accept_terms: acceptTerms,
        invite_token: token,
      });
      await navigate("/two-factor/setup", { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <AuthFrame>
      <PageTitle title={t("signUp.title")} />
      {token === "" ? <p role="alert">{t("signUp.noInvite")}</p> : null}
      <ErrorMessage error={invite.error} />
      {invite.data === undefined ? null : (
        <form onSubmit={submitted(() => void signUp(invite.data.email))}>
          <p>{t("signUp.invited", { email: invite.data.email, until: dateTime(invite.data.expires_at) })}</p>
          <Field
            label={t("signUp.name")}
            autoComplete="name"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <Field
            label={t("auth.password")}
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            maxLength={128}
            hint={t("auth.passwordHint")}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <label className="check">
            <input
              type="checkbox"
              required
              checked={acceptTerms}
              onChange={(event) => setAcceptTerms(event.target.checked)}
            />
            {t("signUp.acceptTerms")}
          </label>
          <ErrorMessage error={error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t("signUp.submit")}
            </button>
          </div>
        </form>
      )}
      <p>
        <Link to="/sign-in">{t("signUp.haveAccount")}</Link>
      </p>
    </AuthFrame>
  );
}
