import {
  generateToken,
  hashPassword,
  hashToken,
  isWellFormedToken,
  normalizeEmail,
  parseSessionReference,
  verifyPassword,
} from "../src";

describe("passwords", () => {
  test("when two passwords share their first 72 bytes, then the hash of one does not verify the other", async () => {
    const prefix = "é".repeat(36); // 72 bytes of UTF-8
    const hash = await hashPassword(`${prefix}one`, 4);

    expect(await verifyPassword(`${prefix}one`, hash, 4)).toBe(true);
    expect(await verifyPassword(`${prefix}two`, hash, 4)).toBe(false);
  });

  test("when the stored hash is null (no account, or no password yet), then verification fails", async () => {
    expect(await verifyPassword("anything at all", null, 4)).toBe(false);
  });

  test("when hashed with cost 12, then the hash says so", async () => {
    expect(await hashPassword("correct horse battery", 12)).toMatch(/^\$2b\$12\$/);
  });
});

describe("tokens", () => {
  test("when generated, then 43 base64url characters (256 bits) stored as their SHA-256", () => {
    const a = generateToken();
    const b = generateToken();

    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.token).not.toBe(b.token);
    expect(isWellFormedToken(a.token)).toBe(true);
    expect(isWellFormedToken(`${a.token}x`)).toBe(false);
    expect(isWellFormedToken("a b")).toBe(false);
  });
});

describe("email normalisation", () => {
  test("when typed with spaces and capitals, then trimmed and lower-cased", () => {
    expect(normalizeEmail("  Ana.Lima@Example.COM ")).toBe("ana.lima@example.com");
  });
});

describe("session references", () => {
  const uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";

  test("when given ses_ with the uuid's 32 hex digits, or the uuid, then the uuid", () => {
    expect(parseSessionReference("ses_0f8fad5bd9cb469fa16570867728950e")).toBe(uuid);
    expect(parseSessionReference(uuid)).toBe(uuid);
    expect(parseSessionReference(uuid.toUpperCase())).toBe(uuid);
  });

  test.each([
    "ses_0f8fad5b",
    "key_0f8fad5bd9cb469fa16570867728950e",
    "ses_0f8fad5b-d9cb-469f-a165-70867728950e",
    "",
    "../etc",
  ])("when given %p, then null", (reference) => {
    expect(parseSessionReference(reference)).toBeNull();
  });
});
