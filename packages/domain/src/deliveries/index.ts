export * from "./delivery-deps";
export * from "./delivery-request";
export * from "./delivery-rows";
export * from "./deliver-attempt";
export * from "./endpoint-health";
export * from "./prepare-attempt";
export * from "./record-attempt";
