/**
 * A secret the API returns only once (an API key, an endpoint or postback secret, backup codes: DESIGN §15), with a
 * copy button. It lives only in this component's props: nothing keeps it after the dialog closes. And an endpoint's
 * credential as a creation or rotation returns it: its secret that way, or its Ed25519 public key (DESIGN §16).
 */
import { useRef, useState } from "react";
import { useI18n } from "../i18n/i18n";

/** Shows `value` once with a copy button and the warning that it will not be shown again. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<"no" | "yes" | "select">("no");
  const code = useRef<HTMLElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // No clipboard outside a secure context: select the text for the seller to copy.
      const selection = window.getSelection();
      if (code.current !== null && selection !== null) selection.selectAllChildren(code.current);
      setCopied("select");
    }
  };
  return (
    <div className="secret-once">
      <p>
        <strong>{label}</strong> — {t("secret.once")}
      </p>
      <div className="secret-row">
        <code ref={code} data-testid="secret-value">
          {value}
        </code>
        <button type="button" onClick={() => void copy()}>
          {copied === "yes" ? t("secret.copied") : t("secret.copy")}
        </button>
      </div>
      {copied === "select" ? <p role="status">{t("secret.select")}</p> : null}
    </div>
  );
}

/**
 * What a receiver verifies an endpoint's deliveries with, as a creation or rotation returns it: the secret, shown once,
 * or for an Ed25519 endpoint its public key (no secret: the endpoint's page shows the key again at any time).
 */
export function EndpointCredential({ endpoint }: { endpoint: { secret?: string; public_key: string | null } }) {
  const { t } = useI18n();
  if (endpoint.secret !== undefined) return <SecretOnce label={t("webhooks.secret")} value={endpoint.secret} />;
  return (
    <p>
      {t("webhooks.publicKey")}: <code data-testid="public-key">{endpoint.public_key}</code>
    </p>
  );
}
