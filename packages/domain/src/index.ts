export * from "./api-keys/api-key";
export * from "./api-keys/create-api-key";
export * from "./documents";
export * from "./errors";
export * from "./ids";
export * from "./secret-box";
export * from "./sellers/create-seller";
export * from "./events/envelope";
