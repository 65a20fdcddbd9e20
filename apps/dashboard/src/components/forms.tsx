/** Small form helpers shared by the pages: a labelled field with its hint, and a form's submit handler. */
import { useId, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";

/** A labelled input; `hint` is read with the field (`aria-describedby`). */
export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint === undefined ? undefined : `${id}-hint`} {...input} />
      {hint === undefined ? null : (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** `onSubmit` without the browser's own submission. */
export function submitted(handler: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    handler();
  };
}
