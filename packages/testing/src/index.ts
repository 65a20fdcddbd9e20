export * from "./queue-cleanup";
export * from "./template-database";
export * from "./test-config";
export * from "./test-database";
export * from "./merchant.factory";
export * from "./webhook-receiver";
export * from "./wait-until";
export * from "./webhook.factory";
