import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SUBSCRIBABLE_EVENT_TYPES } from "../src";

/** Every TypeScript source of the domain except the catalog itself. */
function domainSources(dir = path.join(__dirname, "..", "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return domainSources(full);
    return entry.name.endsWith(".ts") && entry.name !== "event-types.ts" ? [readFileSync(full, "utf8")] : [];
  });
}

describe("event-type catalog", () => {
  test("when the catalog offers a type, then some domain code records it (no type that nothing emits)", () => {
    const sources = domainSources().join("\n");

    const unused = Object.keys(SUBSCRIBABLE_EVENT_TYPES).filter((type) => !sources.includes(`"${type}"`));

    expect(unused).toEqual([]);
  });
});
