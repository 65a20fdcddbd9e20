/**
 * The step-up dialog (DESIGN §3, §15): any action that answers 403 `mfa_required` opens it; once the seller confirms
 * with their password and a code of their authenticator (`POST /v1/me/auth/step-up`), the action runs again, so the
 * seller never repeats a form. Closing the dialog abandons the action (`StepUpCancelled`, which pages do not show).
 */
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { useI18n } from "../i18n/i18n";
import { isMfaRequired, post, StepUpCancelled } from "./client";

/** Runs `action`, and again after a step-up when it answers `mfa_required`. */
export type WithStepUp = <T>(action: () => Promise<T>) => Promise<T>;

const StepUpContext = createContext<WithStepUp | null>(null);

/** The pending confirmation: settles when the seller confirms or closes the dialog. */
interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Provides {@link useStepUp} and renders the dialog when an action needs it. */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  // Actions that need a step-up while the dialog is open wait for the same confirmation.
  const waiting = useRef<Promise<void> | null>(null);

  const confirm = useCallback((): Promise<void> => {
    waiting.current ??= new Promise<void>((resolve, reject) => setPending({ resolve, reject })).finally(() => {
      waiting.current = null;
      setPending(null);
    });
    return waiting.current;
  }, []);

  const withStepUp = useCallback<WithStepUp>(
    async (action) => {
      try {
        return await action();
      } catch (err) {
        if (!isMfaRequired(err)) throw err;
        await confirm();
        return action();
      }
    },
    [confirm],
  );

  return (
    <StepUpContext.Provider value={withStepUp}>
      {children}
      {pending === null ? null : <StepUpDialog pending={pending} />}
    </StepUpContext.Provider>
  );
}

/** The dialog asking for the password and a code. */
function StepUpDialog({ pending }: { pending: Pending }) {
  const { t } = useI18n();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await post("/v1/me/auth/step-up", { code: code.trim(), password });
      pending.resolve();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <Dialog title={t("stepUp.title")} onClose={() => pending.reject(new StepUpCancelled())}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p>{t("stepUp.explain")}</p>
        <label>
          {t("auth.password")}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label>
          {t("auth.totpCode")}
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </label>
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t("stepUp.confirm")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** {@link WithStepUp} of the dashboard. */
export function useStepUp(): WithStepUp {
  const value = useContext(StepUpContext);
  if (value === null) throw new Error("useStepUp outside StepUpProvider");
  return value;
}
