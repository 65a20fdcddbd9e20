export * from "./connection";
export * from "./parking";
export * from "./producer";
export * from "./queues";
