/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as `BENCH_PROFILE_DIR` makes them) to answer "where does the API's
 * time per request go": self time by package (or by our own file), self time by function, and time
 * including callees by package. `node --cpu-prof` samples the whole run, so `--from` and `--to` (seconds since the
 * profile began) keep one phase; the busy share of every second is printed first to find the phases (bench:api runs
 * creations, then reads, each followed by its baseline, during which the API idles).
 *
 * Usage: `npx tsx bench/profile-summary.ts <file.cpuprofile> [--from s] [--to s] [--top n]`.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/** The parts of a `.cpuprofile` read here (Chrome DevTools protocol `Profiler.Profile`). */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  /** Microseconds between a sample and the previous one. */
  timeDeltas: number[];
}

/** Where a frame's code lives: an npm package, a file of ours (`apps/api/http/…`), a Node module, or `(native)`. */
function codeOwner(url: string): string {
  if (url === "") return "(native)";
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency?.[1]) return dependency[1];
  const ours = /\/(apps|packages)\/([^/]+)\/src\/(.*)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}/${ours[3]}`;
  return url.replace(/^file:\/\//, "");
}

/** Milliseconds by key, largest first, as `share  ms  key` lines. */
function table(title: string, times: Map<string, number>, total: number, top: number): string {
  const rows = [...times].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = rows.map(
    ([key, us]) => `${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`,
  );
  return `\n== ${title}\n${lines.join("\n")}`;
}

/**
 * The report for `profile` between `fromS` and `toS` seconds: busy share per second, then the three tables.
 * @param top - rows per table
 */
function summarise(profile: CpuProfile, fromS: number, toS: number, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  const busyPerSecond: { busy: number; all: number }[] = [];
  const selfByOwner = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusiveByOwner = new Map<string, number>();
  let clockUs = 0;
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    clockUs += us;
    const node = byId.get(id);
    if (!node) return;
    const second = Math.floor(clockUs / 1e6);
    const slot = (busyPerSecond[second] ??= { busy: 0, all: 0 });
    slot.all += us;
    if (node.callFrame.functionName !== "(idle)") slot.busy += us;
    if (clockUs < fromS * 1e6 || clockUs >= toS * 1e6) return;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    add(selfByOwner, codeOwner(url), us);
    add(selfByFunction, `${functionName || "(anonymous)"}  ${codeOwner(url)}:${lineNumber + 1}`, us);
    // Each owner once per stack, however deep its recursion.
    const owners = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      owners.add(codeOwner(byId.get(at)?.callFrame.url ?? ""));
    }
    for (const owner of owners) add(inclusiveByOwner, owner, us);
  });
  const busy = busyPerSecond.map((slot, s) => `${s}:${slot ? Math.round((slot.busy / slot.all) * 100) : 0}`);
  return [
    `busy % per second: ${busy.join(" ")}`,
    `window ${fromS} to ${Math.min(toS, clockUs / 1e6).toFixed(0)} s: ${(totalUs / 1000).toFixed(0)} ms sampled`,
    table("self time by package or file", selfByOwner, totalUs, top),
    table("self time by function", selfByFunction, totalUs, top),
    table("time including callees, by package or file", inclusiveByOwner, totalUs, top),
  ].join("\n");
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: "string", default: "0" }, to: { type: "string" }, top: { type: "string", default: "40" } },
  });
  const file = positionals[0];
  if (file === undefined) throw new Error("usage: profile-summary <file.cpuprofile> [--from s] [--to s] [--top n]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const to = values.to === undefined ? Infinity : Number(values.to);
  process.stdout.write(`${summarise(profile, Number(values.from), to, Number(values.top))}\n`);
}

if (require.main === module) main();
