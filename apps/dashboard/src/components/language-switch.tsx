/** The language switch: Português (the default) or English. */
import { useI18n } from "../i18n/i18n";

/** A labelled select of the dashboard's languages. */
export function LanguageSwitch() {
  const { t, locale, setLocale } = useI18n();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t("nav.language")}</span>
      <select value={locale} onChange={(event) => setLocale(event.target.value === "en" ? "en" : "pt-BR")}>
        <option value="pt-BR" lang="pt-BR">
          Português
        </option>
        <option value="en" lang="en">
          English
        </option>
      </select>
    </label>
  );
}
