/**
 * The signed-in dashboard's frame: a skip link, the header with the live/test switch (always in view, DESIGN §15),
 * the language and sign-out, the main navigation, and the page. Reading the seller's profile tells whether a session
 * is open: without one, the seller is sent to sign in and brought back after.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { isSignedOut, post } from "../api/client";
import { useApiQuery } from "../api/hooks";
import type { Seller } from "../api/types";
import { useI18n } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages";
import { useMode } from "../mode";
import { ErrorMessage } from "./error-message";
import { LanguageSwitch } from "./language-switch";

/** The main navigation: path and label. */
const NAVIGATION: [string, MessageKey][] = [
  ["/", "nav.home"],
  ["/charges", "nav.charges"],
  ["/webhooks", "nav.webhooks"],
  ["/api-keys", "nav.apiKeys"],
  ["/payouts", "nav.payouts"],
  ["/disputes", "nav.disputes"],
  ["/notifications", "nav.notifications"],
  ["/security", "nav.security"],
];

/** The live/test switch: two radio buttons, test first. */
function ModeSwitch() {
  const { t } = useI18n();
  const { mode, setMode } = useMode();
  return (
    <fieldset className="mode-switch">
      <legend>{t("mode.label")}</legend>
      {(["test", "live"] as const).map((value) => (
        <label key={value} className={mode === value ? "selected" : undefined}>
          <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
          {t(value === "test" ? "mode.test" : "mode.live")}
        </label>
      ))}
    </fieldset>
  );
}

/** The frame of every signed-in page. */
export function Layout() {
  const { t } = useI18n();
  const { mode } = useMode();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const seller = useApiQuery<Seller>("/v1/me/seller");

  // After a navigation (not the first load: the skip link comes first) the keyboard and screen readers continue from
  // the new page: its heading, or while it loads, the page's region.
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    (document.querySelector<HTMLElement>("main h1") ?? document.querySelector<HTMLElement>("main"))?.focus();
  }, [location.pathname]);

  if (seller.error !== null && isSignedOut(seller.error)) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }

  const signOut = async () => {
    await post("/v1/me/auth/sign-out").catch(() => undefined);
    client.clear();
    await navigate("/sign-in");
  };

  return (
    <div className={`app mode-${mode}`}>
      <a className="skip-link" href="#main">
        {t("nav.skip")}
      </a>
      <header className="top-bar">
        <span className="brand">LM Pix</span>
        <span className="seller-name">{seller.data?.trade_name ?? seller.data?.legal_name ?? ""}</span>
        <ModeSwitch />
        <LanguageSwitch />
        <button type="button" className="link-button" onClick={() => void signOut()}>
          {t("nav.signOut")}
        </button>
      </header>
      {mode === "test" ? (
        <p className="test-banner" role="status">
          {t("mode.testBanner")}
        </p>
      ) : null}
      <div className="body">
        <nav aria-label={t("nav.label")}>
          <ul>
            {NAVIGATION.map(([path, label]) => (
              <li key={path}>
                <NavLink to={path} end={path === "/"}>
                  {t(label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {seller.error !== null ? <ErrorMessage error={seller.error} /> : null}
          {seller.data === undefined ? null : <Outlet />}
        </main>
      </div>
    </div>
  );
}
