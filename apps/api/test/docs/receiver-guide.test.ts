/**
 * docs/receiving-webhooks.md shows the receivers of docs/receivers/ inline; the files are the single source (the
 * tests run them against real deliveries), so every code block the guide marks with `<!-- receiver: <path> -->` must
 * equal its file, and every receiver file must be shown.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const DOCS_DIR = path.resolve(__dirname, "../../../../docs");
const RECEIVERS_DIR = path.join(DOCS_DIR, "receivers");
const GUIDE = readFileSync(path.join(DOCS_DIR, "receiving-webhooks.md"), "utf8");

/** Every marked block of the guide: the path it names and the code of the fenced block after the marker. */
function shownReceivers(guide: string): { file: string; code: string }[] {
  return [...guide.matchAll(/<!-- receiver: (\S+) -->\s*```\w*\n([\s\S]*?)```/g)].map((match) => ({
    file: match[1] ?? "",
    code: match[2] ?? "",
  }));
}

/** Every receiver file, relative to docs/receivers. */
function receiverFiles(): string[] {
  return readdirSync(RECEIVERS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) => readdirSync(path.join(RECEIVERS_DIR, dir.name)).map((name) => `${dir.name}/${name}`))
    .sort();
}

describe("docs/receiving-webhooks.md", () => {
  test("when the guide shows a receiver, then the code block equals the receiver's file byte for byte", () => {
    const shown = shownReceivers(GUIDE);

    const drifted = shown.filter(({ file, code }) => readFileSync(path.join(RECEIVERS_DIR, file), "utf8") !== code);

    expect(shown.length).toBeGreaterThan(0);
    expect(drifted.map(({ file }) => file)).toEqual([]);
  });

  test("when docs/receivers has a receiver file, then the guide shows it (Node.js, Python, PHP and Go)", () => {
    const shown = shownReceivers(GUIDE)
      .map(({ file }) => file)
      .sort();

    expect(shown).toEqual(receiverFiles());
    expect(shown).toEqual(["go/main.go", "node/receiver.mjs", "php/receiver.php", "python/receiver.py"]);
  });
});
