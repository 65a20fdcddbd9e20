/**
 * Turning 2FA on (SPEC "Two-factor authentication"): the password (`two-factor/enable`) gives the authenticator's
 * URI, shown as a QR code and as its secret for typing, and ten backup codes shown once; the first code of the
 * authenticator (`two-factor/verify-totp`) completes the enrolment. The QR encoder is loaded only on this page.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { post } from "../api/client";
import type { TwoFactorEnrolment } from "../api/types";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { SecretOnce } from "../components/secret-once";
import { useI18n } from "../i18n/i18n";

/** `uri` as a QR code, an SVG image as a `data:` URL (the page's CSP admits `data:` images only). */
function useQrCode(uri: string): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import("qrcode").then(async (qrcode) => {
      const svg = await qrcode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
      if (current) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  return image;
}

/** The QR code, the secret to type, the backup codes and the first code. */
function Enrolment({ enrolment, onDone }: { enrolment: TwoFactorEnrolment; onDone: () => void }) {
  const { t } = useI18n();
  const qr = useQrCode(enrolment.totpURI);
  const secret = new URL(enrolment.totpURI).searchParams.get("secret") ?? "";
  const [code, setCode] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      await post("/v1/me/auth/two-factor/verify-totp", { code: code.trim() });
      onDone();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <>
      <section aria-labelledby="scan">
        <h2 id="scan">{t("twoFactor.scan")}</h2>
        {qr === null ? null : <img className="qr" src={qr} alt={t("twoFactor.qrAlt")} width={200} height={200} />}
        <p>
          {t("twoFactor.typeSecret")} <code data-testid="totp-secret">{secret}</code>
        </p>
      </section>
      <section aria-labelledby="backup">
        <h2 id="backup">{t("twoFactor.backupCodes")}</h2>
        <SecretOnce label={t("twoFactor.backupCodes")} value={enrolment.backupCodes.join(" ")} />
      </section>
      <form onSubmit={submitted(() => void verify())}>
        <Field
          label={t("auth.totpCode")}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t("twoFactor.activate")}
          </button>
        </div>
      </form>
    </>
  );
}

/** The 2FA enrolment page. */
export function TwoFactorSetupPage() {
  const { t } = useI18n();
  const client = useQueryClient();
  const [password, setPassword] = useState("");
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const enable = async () => {
    setBusy(true);
    setError(null);
    try {
      setEnrolment(await post<TwoFactorEnrolment>("/v1/me/auth/two-factor/enable", { password }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title={t("twoFactor.title")} />
      {done ? (
        <>
          <p role="status">{t("twoFactor.done")}</p>
          <p>
            <Link to="/">{t("common.continue")}</Link>
          </p>
        </>
      ) : enrolment !== null ? (
        <Enrolment
          enrolment={enrolment}
          onDone={() => {
            setDone(true);
            void client.invalidateQueries();
          }}
        />
      ) : (
        <form onSubmit={submitted(() => void enable())}>
          <p>{t("twoFactor.explain")}</p>
          <Field
            label={t("auth.password")}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <ErrorMessage error={error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t("twoFactor.start")}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
