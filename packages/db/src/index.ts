export * from "./client";
export * from "./errors";
export * from "./transaction";
export * from "./generated/client";
