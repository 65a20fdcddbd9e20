export * from "./find-webhook-endpoints";
export * from "./manage-webhook-endpoints";
export * from "./endpoint-deliveries";
