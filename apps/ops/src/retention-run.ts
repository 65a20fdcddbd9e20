/**
 * `retention:run [--json]`: applies retention now, as the worker's hourly job does (DESIGN §10 "Retention"), and
 * prints the rows it removed per table; `--json` prints `{removed: {<table>: <rows>}}`.
 */
import { applyRetention } from "@lm/domain";
import type { Command } from "./command";

/** Applies retention as of the command's clock. */
export const retentionRun: Command = {
  usage: "retention:run",
  options: [],
  async run(ctx) {
    const { removed, partitionsCreated, partitionsDropped } = await applyRetention(ctx, ctx.now);
    const lines = Object.entries(removed).map(([table, rows]) => `${table}: ${rows} rows removed`);
    if (partitionsDropped.length > 0) lines.push(`partitions dropped: ${partitionsDropped.join(", ")}`);
    if (partitionsCreated.length > 0) lines.push(`partitions created: ${partitionsCreated.join(", ")}`);
    return { text: lines.join("\n"), json: { removed } };
  },
};
