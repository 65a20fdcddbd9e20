import { findUnstorableText, isStorableText, toStorableText } from "../../src/text/storable-text";

describe("storable text", () => {
  test.each([
    ["plain text", "Pedido 1234", true],
    ["an emoji (a surrogate pair)", "😀 ok", true],
    ["a NUL", "a\u0000b", false],
    ["a lone high surrogate", "\ud800x", false],
    ["a lone low surrogate", "x\udc00", false],
    ["a reversed pair", "\udc00\ud800", false],
  ])("when the text is %s, then storable is %s", (_label, value, storable) => {
    expect(isStorableText(value)).toBe(storable);
  });

  test("when text is made storable, then NUL and lone surrogates become U+FFFD and pairs stay", () => {
    expect(toStorableText("a\u0000b\ud800c😀\udfff")).toBe("a\ufffdb\ufffdc😀\ufffd");
  });

  test("when a value nests unstorable text, then the path of the first one is named, keys included", () => {
    expect(findUnstorableText({ amount: 1, customer: { name: "ok", tags: ["a", "b\u0000"] } })).toBe("customer.tags.1");
    expect(findUnstorableText({ metadata: { "k\ud800": "v" } })).toBe("metadata.k\ufffd");
    expect(findUnstorableText({ a: "x\u0000", b: "\u0000" })).toBe("a");
    expect(findUnstorableText("\u0000")).toBe("");
    expect(findUnstorableText({ fine: ["😀", 1, null, true, { deep: "yes" }] })).toBeNull();
  });

  test("when a body nests arrays 50,000 deep, then the walk does not overflow the stack and names the full path", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 50_000; i++) deep = [deep];

    const path = findUnstorableText(deep);

    expect(path?.split(".")).toHaveLength(50_000);
  });
});
