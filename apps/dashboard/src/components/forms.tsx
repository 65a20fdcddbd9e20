/** Small form helpers shared by the pages: a labelled field and a form that reports its submission. */
import type { FormEvent, InputHTMLAttributes, ReactNode } from "react";

/** A label around an input; `hint` is read with the field (`aria-describedby` through nesting). */
export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label>
      {label}
      <input {...input} />
      {hint === undefined ? null : <small className="hint">{hint}</small>}
    </label>
  );
}

/** `onSubmit` without the browser's own submission. */
export function submitted(handler: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    handler();
  };
}
