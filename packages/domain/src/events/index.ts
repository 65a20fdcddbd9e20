/**
 * Events (SPEC "Events", DESIGN §1): the envelope, the catalogue of types, recording an event with its fan-out, and
 * reads.
 */
export * from "./envelope";
export * from "./record-event";
export * from "./find-events";
export * from "./event-types";
