import { Type, type Static } from "@sinclair/typebox";
import { StringEnum, StringMap, wireObject } from "./schema";

/** SPEC "Probe results". */
export const Health = wireObject(
  "Health",
  Type.Object(
    {
      status: Type.Literal("ok"),
      version: Type.String({ description: "The service's version (root package.json)." }),
      uptime_s: Type.Integer({ minimum: 0 }),
    },
    { description: 'SPEC "Probe results".' },
  ),
);
/** Health as sent. */
export type Health = Static<typeof Health>;

/** SPEC "Probe results": `ok` when every check passed within 2 s, else `degraded`. */
export const Readiness = wireObject(
  "Readiness",
  Type.Object(
    {
      status: StringEnum(["ok", "degraded"]),
      checks: StringMap(
        Type.Union([
          StringEnum(["ok", "skipped"]),
          Type.Object({
            error: Type.String(),
          }),
        ]),
        {
          description:
            "Dependency name (`database`, `redis`, `change_feed`: the API key change feed hears its own notifications) → its check.",
        },
      ),
    },
    { description: 'SPEC "Probe results": `ok` when every check passed within 2 s, else `degraded`.' },
  ),
);
/** Readiness as sent. */
export type Readiness = Static<typeof Readiness>;
