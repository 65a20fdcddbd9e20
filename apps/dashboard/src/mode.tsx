/**
 * The live/test switch (DESIGN §15: always in view, test by default). Every list and creation of the dashboard
 * uses the chosen mode; the choice is kept in `localStorage` (a preference, nothing secret).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { Mode } from "./api/types";

const STORAGE_KEY = "lm.dashboard.mode";

interface ModeContextValue {
  mode: Mode;
  setMode: (mode: Mode) => void;
}

const ModeContext = createContext<ModeContextValue | null>(null);

/** Provides the mode to the whole dashboard. */
export function ModeProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<Mode>(() => (localStorage.getItem(STORAGE_KEY) === "live" ? "live" : "test"));
  const setMode = useCallback((next: Mode) => {
    localStorage.setItem(STORAGE_KEY, next);
    setModeState(next);
  }, []);
  const value = useMemo(() => ({ mode, setMode }), [mode, setMode]);
  return <ModeContext.Provider value={value}>{children}</ModeContext.Provider>;
}

/** The current mode and its setter. */
export function useMode(): ModeContextValue {
  const value = useContext(ModeContext);
  if (value === null) throw new Error("useMode outside ModeProvider");
  return value;
}
