import { listenSecret } from "../src/listen";

describe("listenSecret", () => {
  test("when asked twice with one key, then the same secret; with another key, another", () => {
    const key = "sk_test_0123456789abcdefghijABCDEFGHIJ";

    expect(listenSecret(key, "stripe")).toBe(listenSecret(key, "stripe"));
    expect(listenSecret(`${key}x`, "stripe")).not.toBe(listenSecret(key, "stripe"));
  });

  test("when made for each scheme, then whsec_ and 43 characters of that scheme's base64 encoding 32 bytes", () => {
    const key = "sk_test_0123456789abcdefghijABCDEFGHIJ";
    const stripe = listenSecret(key, "stripe");
    const standard = listenSecret(key, "standard_webhooks");

    expect(stripe).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(standard).toMatch(/^whsec_[A-Za-z0-9+/]{43}$/);
    expect(Buffer.from(standard.slice(6), "base64")).toEqual(Buffer.from(stripe.slice(6), "base64url"));
    expect(stripe).not.toContain(key.slice(8));
  });
});
