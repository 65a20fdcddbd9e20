/**
 * A page's heading: the `<h1>` that receives focus after each navigation (so a screen reader announces the new page
 * and the keyboard continues from it) and the document's title.
 */
import { useEffect, type ReactNode } from "react";

/** The page's `<h1>`, also the document's title; `actions` sit beside it. */
export function PageTitle({ title, actions }: { title: string; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · LM Pix`;
  }, [title]);
  return (
    <div className="page-title">
      <h1 tabIndex={-1}>{title}</h1>
      {actions === undefined ? null : <div className="actions">{actions}</div>}
    </div>
  );
}
