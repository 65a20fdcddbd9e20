export * from "./apply-retention";
export * from "./retention-window";
