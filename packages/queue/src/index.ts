export * from "./connection";
export * from "./producer";
export * from "./queues";
