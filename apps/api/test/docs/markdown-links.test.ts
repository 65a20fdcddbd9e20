/**
 * The README and docs/ are read from a clone of this repository, so a relative link must reach a file of that clone
 * (and a `#fragment`, a heading of the Markdown file it names), never a folder beside it; an address of the service
 * itself can only be its reference, `/docs` or `/openapi.json`, or the seller dashboard, `/dashboard`, of the API the
 * quick start runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** The Markdown a newcomer reads: the README and everything under docs/. */
function readersMarkdown(): string[] {
  const docs = readdirSync(path.join(REPO_ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name));
  return ["README.md", ...docs].sort();
}

/** The targets of `[text](target)` links in `markdown`, leaving out code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "code");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? "");
}

/** GitHub's anchors of the headings of `markdown` (lower case, punctuation dropped, spaces as hyphens). */
function headingAnchors(markdown: string): Set<string> {
  const headings = markdown.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} +(.+?) *$/gm);
  return new Set(
    [...headings].map((match) =>
      (match[1] ?? "")
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

/** What is wrong with the link `target` of the file `file` (relative to the repository), or null. */
function linkProblem(file: string, target: string): string | null {
  if (/^https?:\/\/localhost[:/]/.test(target)) {
    return /^http:\/\/localhost:3000\/(docs|openapi\.json|dashboard)$/.test(target)
      ? null
      : "not the API's /docs, /openapi.json or /dashboard";
  }
  if (/^[a-z]+:/.test(target)) return null; // another site's page
  const [pathPart = "", fragment] = target.split("#");
  const resolved = pathPart === "" ? path.join(REPO_ROOT, file) : path.resolve(REPO_ROOT, path.dirname(file), pathPart);
  if (path.relative(REPO_ROOT, resolved).startsWith("..")) return "outside the repository";
  if (!existsSync(resolved)) return "no such file";
  if (fragment === undefined) return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md"))
    return "a #fragment of a file that has no headings";
  return headingAnchors(readFileSync(resolved, "utf8")).has(fragment) ? null : `no heading #${fragment}`;
}

describe("links of the README and docs/", () => {
  test("when a newcomer follows a link of the README or docs/, then it reaches a file of this repository, a heading of it, or the running API's reference", () => {
    const files = readersMarkdown();
    const broken = files.flatMap((file) =>
      linkTargets(readFileSync(path.join(REPO_ROOT, file), "utf8")).flatMap((target) => {
        const problem = linkProblem(file, target);
        return problem === null ? [] : [`${file}: ${target}: ${problem}`];
      }),
    );

    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/main-flows.md", "docs/receiving-webhooks.md"]));
    expect(broken).toEqual([]);
  });
});
