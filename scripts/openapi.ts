/**
 * `npm run openapi`: generates `apps/api/openapi.json` from the route contracts, the event catalog and the overlay
 * (apps/api/src/routes/openapi/openapi-document.ts), formatted as prettier formats it, then the typed client `lm`
 * uses (`npm run openapi:client`).
 *
 * `npm run openapi -- --check` writes nothing: it fails, naming the first difference, when the committed document is
 * not the one the sources generate (run by `npm run lint`, so CI fails on a contract changed without its document).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { format } from "prettier";
import { ROUTE_CONTRACTS } from "../apps/api/src/routes/contracts";
import { buildOpenApiDocument, type OpenApiOverlay } from "../apps/api/src/routes/openapi/openapi-document";

const REPO_ROOT = path.resolve(__dirname, "..");
const DOCUMENT_PATH = path.join(REPO_ROOT, "apps/api/openapi.json");
const OVERLAY_PATH = path.join(REPO_ROOT, "apps/api/openapi.overlay.json");

/** The first line where `a` and `b` differ, with both versions, for the check's message. */
function firstDifference(a: string, b: string): string {
  const linesA = a.split("\n");
  const linesB = b.split("\n");
  const at = linesA.findIndex((line, i) => line !== linesB[i]);
  const index = at === -1 ? linesA.length : at;
  return `line ${index + 1}:\n  committed: ${linesA[index] ?? "(end)"}\n  generated: ${linesB[index] ?? "(end)"}`;
}

async function main(): Promise<void> {
  const overlay = JSON.parse(readFileSync(OVERLAY_PATH, "utf8")) as OpenApiOverlay;
  const document = buildOpenApiDocument(ROUTE_CONTRACTS, overlay);
  const generated = await format(JSON.stringify(document), { filepath: DOCUMENT_PATH });
  if (process.argv.includes("--check")) {
    const committed = readFileSync(DOCUMENT_PATH, "utf8");
    if (committed !== generated) {
      console.error(
        `apps/api/openapi.json is not what the contracts generate; run \`npm run openapi\` and commit the result.\n` +
          firstDifference(committed, generated),
      );
      process.exit(1);
    }
    console.log("apps/api/openapi.json matches the contracts");
    return;
  }
  writeFileSync(DOCUMENT_PATH, generated);
  execFileSync("npm", ["run", "--silent", "openapi:client"], { cwd: REPO_ROOT, stdio: "inherit" });
  console.log(`wrote apps/api/openapi.json (${Object.keys(document.paths as object).length} paths)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
