import { Type, type Static } from "@sinclair/typebox";
import { StringEnum, wireObject } from "./schema";

/** Mode */
export const Mode = wireObject("Mode", StringEnum(["live", "test"]));
/** Mode as sent. */
export type Mode = Static<typeof Mode>;

/** Empty */
export const Empty = wireObject("Empty", Type.Object({}, { maxProperties: 0 }));
/** Empty as sent. */
export type Empty = Static<typeof Empty>;

/** Status */
export const Status = wireObject(
  "Status",
  Type.Object({
    status: Type.Boolean({ description: "Always true on success." }),
  }),
);
/** Status as sent. */
export type Status = Static<typeof Status>;
