/**
 * The dashboard's language (DESIGN §15: pt-BR by default, English available): a context giving `t(key, values)`
 * over the dictionaries of messages.ts and the money and date formats of that language. The choice is kept in
 * `localStorage` (a preference, nothing secret) and set on `<html lang>` for screen readers.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { formatDateTime, formatDay, formatMoney, type Locale } from "./format";
import { MESSAGES, type MessageKey } from "./messages";

const STORAGE_KEY = "lm.dashboard.locale";

/** What a page reads from the language context. */
export interface I18n {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  /** The message `key` in the current language, each `{name}` replaced by `values[name]`. */
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  /** The message of a key made at run time (`status.<value>`), or `fallback` when the dictionary has none. */
  label: (key: string, fallback: string) => string;
  /** Integer centavos as reais. */
  money: (cents: number) => string;
  /** An ISO instant in São Paulo time; `—` for null. */
  dateTime: (iso: string | null | undefined) => string;
  /** A `YYYY-MM-DD` day, short. */
  day: (day: string) => string;
}

const I18nContext = createContext<I18n | null>(null);

function storedLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === "en" ? "en" : "pt-BR";
}

/** Provides the language context to the whole dashboard. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(storedLocale);
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLocaleState(next);
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo<I18n>(() => {
    const dictionary = MESSAGES[locale];
    return {
      locale,
      setLocale,
      t: (key, values) =>
        dictionary[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values?.[name] ?? whole)),
      label: (key, fallback) => (key in dictionary ? dictionary[key as MessageKey] : fallback),
      money: (cents) => formatMoney(cents, locale),
      dateTime: (iso) => formatDateTime(iso, locale),
      day: (day) => formatDay(day, locale),
    };
  }, [locale, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The language context. */
export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (i18n === null) throw new Error("useI18n outside I18nProvider");
  return i18n;
}
