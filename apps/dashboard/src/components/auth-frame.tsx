/** The frame of the pages used without a session (sign-in, sign-up, mailed links): a card with the brand. */
import type { ReactNode } from "react";
import { LanguageSwitch } from "./language-switch";

/** A centred card with the brand and the language switch. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="auth-frame">
      <header className="auth-header">
        <span className="brand">LM Pix</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="card">
        {children}
      </main>
    </div>
  );
}
