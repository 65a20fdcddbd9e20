/**
 * A modal dialog on the native `<dialog>` element: the browser keeps the focus inside it, Escape closes it, and the
 * focus goes back to what opened it. Its title names it for screen readers.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useI18n } from "../i18n/i18n";

/** Props of {@link Dialog}. */
export interface DialogProps {
  title: string;
  /** Called when the seller closes it (Escape, the close button). */
  onClose: () => void;
  children: ReactNode;
}

/** A modal dialog, open while mounted. */
export function Dialog({ title, onClose, children }: DialogProps) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    // Closing by unmounting removes the dialog before the browser could give the focus back: this does.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog !== null && !dialog.open) {
      dialog.showModal();
      // The first field, rather than the close button the browser would pick.
      dialog.querySelector<HTMLElement>("input, select, textarea")?.focus();
    }
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="link-button" onClick={onClose}>
          {t("common.close")}
        </button>
      </header>
      {children}
    </dialog>
  );
}
