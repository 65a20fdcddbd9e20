export * from "./change-feed";
export * from "./client";
export * from "./errors";
export * from "./sql";
export * from "./transaction";
export * from "./generated/client";
