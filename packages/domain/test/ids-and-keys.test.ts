import { apiKeyMode, decryptSecret, encryptSecret, generateApiKey, hashApiKey, isId, newId } from "../src";
import { createHash, randomBytes } from "node:crypto";

describe("ids", () => {
  test("when ids are made one after another, then they carry their prefix and sort by time", () => {
    const first = newId("transaction", 1_700_000_000_000);
    const second = newId("transaction", 1_700_000_000_001);

    expect(first).toMatch(/^txn_[0-9A-Z]{26}$/);
    expect([second, first].sort()).toEqual([first, second]);
    expect(isId("transaction", first)).toBe(true);
    expect(isId("event", first)).toBe(false);
    expect(isId("transaction", "txn_../../etc")).toBe(false);
  });
});

describe("API keys", () => {
  test("when a key is generated, then it has the documented form and its hash is the SHA-256 of the key", () => {
    const generated = generateApiKey("test");

    expect(generated.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(generated.prefix).toBe(generated.key.slice(0, 12));
    expect(generated.hash).toBe(createHash("sha256").update(generated.key).digest("hex"));
    expect(hashApiKey(generated.key)).toBe(generated.hash);
    expect(apiKeyMode(generated.key)).toBe("test");
    expect(apiKeyMode("sk_prod_abc")).toBeNull();
  });

  test("when many keys are generated, then none repeats", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey("live").key));
    expect(keys.size).toBe(1000);
  });
});

describe("secret box", () => {
  const key = randomBytes(32);

  test("when a secret is encrypted for a row, then it decrypts for that row only", () => {
    const envelope = encryptSecret(key, "whsec_abc", "we_1");

    expect(envelope).not.toContain("whsec_abc");
    expect(decryptSecret(key, envelope, "we_1")).toBe("whsec_abc");
    expect(() => decryptSecret(key, envelope, "we_2")).toThrow();
    expect(() => decryptSecret(randomBytes(32), envelope, "we_1")).toThrow();
  });

  test("when the same secret is encrypted twice, then the envelopes differ (fresh IV)", () => {
    expect(encryptSecret(key, "s", "r")).not.toBe(encryptSecret(key, "s", "r"));
  });
});
