/**
 * How the Markdown pages keep the links of the repository files they are made from (markdown-pages.ts `servedLinks`).
 */
import { servedLinks } from "../../src/routes/llms/markdown-pages";

describe("servedLinks", () => {
  test("when a link names a file the service serves, then it goes to the served address, from wherever the source is", () => {
    expect(servedLinks("See [the guide](docs/receiving-webhooks.md).", "README.md")).toBe(
      "See [the guide](/docs/receiving-webhooks.md).",
    );
    expect(servedLinks("[the document](../apps/api/openapi.json#/paths)", "docs/receiving-webhooks.md")).toBe(
      "[the document](/openapi.json)",
    );
  });

  test("when a link names a file or section the service does not serve, then its text stays without the link", () => {
    expect(servedLinks("[`docs/receivers/`](receivers/) and [Tests](#tests)", "docs/receiving-webhooks.md")).toBe(
      "`docs/receivers/` and Tests",
    );
  });

  test("when a link is absolute or inside a code block, then it is left as it is, and an image of the repository becomes its alt text", () => {
    const markdown = [
      "[Standard Webhooks](https://www.standardwebhooks.com/) ![logo](https://example.com/logo.png)",
      "```go",
      "x := m[k](y) // [a](b.md)",
      "```",
    ].join("\n");

    expect(servedLinks(markdown, "README.md")).toBe(markdown);
    expect(servedLinks("See ![the home page](docs/screenshots/home.png).", "README.md")).toBe("See the home page.");
  });
});
