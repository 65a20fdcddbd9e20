/**
 * The pages that mailed links open (DESIGN §3 "Tokens sent by mail"), each posting its token to the panel API:
 * email verification, password reset (and asking for one), and lost-2FA recovery (and asking for one).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { get, post } from "../api/client";
import { AuthFrame } from "../components/auth-frame";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { useI18n } from "../i18n/i18n";

/** The dashboard's sign-in page on this origin: where a reset link leads after the new password is set. */
function signInUrl(): string {
  return `${window.location.origin}/dashboard/sign-in`;
}

/** A one-shot form: its busy state, error and outcome. */
function useSubmission<T>() {
  const [state, setState] = useState<{ busy: boolean; error: unknown; result: T | null }>({
    busy: false,
    error: null,
    result: null,
  });
  const run = async (action: () => Promise<T>) => {
    setState({ busy: true, error: null, result: null });
    try {
      setState({ busy: false, error: null, result: await action() });
    } catch (err) {
      setState({ busy: false, error: err, result: null });
    }
  };
  return { ...state, run };
}

/** `/verify-email?token=`: verifies the owner's email as soon as it opens. */
export function VerifyEmailPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const verified = useQuery({
    queryKey: ["verify-email", token],
    queryFn: () => get<{ status: boolean }>("/v1/me/auth/verify-email", { token }),
    retry: false,
    staleTime: Infinity,
  });
  return (
    <AuthFrame>
      <PageTitle title={t("verifyEmail.title")} />
      {verified.isPending ? <p role="status">{t("common.loading")}</p> : null}
      {verified.data === undefined ? null : <p role="status">{t("verifyEmail.done")}</p>}
      <ErrorMessage error={verified.error} />
      <p>
        <Link to="/">{t("common.continue")}</Link>
      </p>
    </AuthFrame>
  );
}

/** `/forgot-password`: asks for a reset link by mail. */
export function ForgotPasswordPage() {
  const { t } = useI18n();
  const [email, setEmail] = useState("");
  const submission = useSubmission<{ status: boolean }>();
  return (
    <AuthFrame>
      <PageTitle title={t("reset.requestTitle")} />
      {submission.result === null ? (
        <form
          onSubmit={submitted(
            () =>
              void submission.run(() => post("/v1/me/auth/request-password-reset", { email, redirectTo: signInUrl() })),
          )}
        >
          <Field
            label={t("auth.email")}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <ErrorMessage error={submission.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={submission.busy}>
              {t("reset.request")}
            </button>
          </div>
        </form>
      ) : (
        <p role="status">{t("reset.requested")}</p>
      )}
      <p>
        <Link to="/sign-in">{t("auth.backToSignIn")}</Link>
      </p>
    </AuthFrame>
  );
}

/** `/reset-password?token=`: sets a new password (every session of the user ends). */
export function ResetPasswordPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const [password, setPassword] = useState("");
  const submission = useSubmission<{ status: boolean }>();
  const token = params.get("token") ?? "";
  return (
    <AuthFrame>
      <PageTitle title={t("reset.title")} />
      {submission.result === null ? (
        <form
          onSubmit={submitted(
            () => void submission.run(() => post("/v1/me/auth/reset-password", { token, newPassword: password })),
          )}
        >
          <Field
            label={t("reset.newPassword")}
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            maxLength={128}
            hint={t("auth.passwordHint")}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <ErrorMessage error={submission.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={submission.busy}>
              {t("reset.submit")}
            </button>
          </div>
        </form>
      ) : (
        <p role="status">{t("reset.done")}</p>
      )}
      <p>
        <Link to="/sign-in">{t("auth.backToSignIn")}</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * `/two-factor/recovery`: without a token, asks for a recovery link (email and password); with `?token=`, turns 2FA
 * off, which ends every session and locks withdrawals for 24 h (SPEC "Lost-2FA recovery").
 */
export function TwoFactorRecoveryPage() {
  const { t, dateTime } = useI18n();
  const [params] = useSearchParams();
  const token = params.get("token");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const request = useSubmission<{ status: boolean }>();
  const confirm = useSubmission<{ withdrawals_locked_until: string }>();

  if (token !== null) {
    return (
      <AuthFrame>
        <PageTitle title={t("recovery.confirmTitle")} />
        {confirm.result === null ? (
          <form
            onSubmit={submitted(
              () => void confirm.run(() => post("/v1/me/auth/two-factor/recovery/confirm", { token })),
            )}
          >
            <p>{t("recovery.confirmExplain")}</p>
            <ErrorMessage error={confirm.error} />
            <div className="actions">
              <button type="submit" className="danger" disabled={confirm.busy}>
                {t("recovery.confirm")}
              </button>
            </div>
          </form>
        ) : (
          <p role="status">{t("recovery.done", { until: dateTime(confirm.result.withdrawals_locked_until) })}</p>
        )}
        <p>
          <Link to="/sign-in">{t("auth.backToSignIn")}</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame>
      <PageTitle title={t("recovery.requestTitle")} />
      {request.result === null ? (
        <form
          onSubmit={submitted(
            () =>
              void request.run(() =>
                post("/v1/me/auth/two-factor/recovery/request", {
                  email,
                  password,
                  redirect_to: signInUrl(),
                }),
              ),
          )}
        >
          <p>{t("recovery.requestExplain")}</p>
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
          <ErrorMessage error={request.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={request.busy}>
              {t("recovery.request")}
            </button>
          </div>
        </form>
      ) : (
        <p role="status">{t("recovery.requested")}</p>
      )}
      <p>
        <Link to="/sign-in">{t("auth.backToSignIn")}</Link>
      </p>
    </AuthFrame>
  );
}
