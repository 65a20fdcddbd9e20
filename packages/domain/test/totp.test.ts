import * as OTPAuth from "otpauth";
import speakeasy from "speakeasy";
import {
  generateBackupCodes,
  generateTotpSecret,
  hashBackupCode,
  matchTotpStep,
  normalizeBackupCode,
  totpUri,
} from "../src";

/** RFC 6238 appendix B: the SHA-1 seed "12345678901234567890". */
const RFC_SECRET = Buffer.from("12345678901234567890", "ascii").toString("hex");
/** RFC 6238 SHA-1 vectors (unix seconds → 8-digit code); we use 6 digits, the last six. */
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];
const at = (seconds: number) => new Date(seconds * 1000);

describe("TOTP (RFC 6238, SHA-1, 6 digits, 30 s)", () => {
  test.each(RFC_VECTORS)("when the RFC vector at %i s is given, then its step is accepted", (seconds, eight) => {
    expect(matchTotpStep(RFC_SECRET, eight.slice(2), at(seconds))).toBe(Math.floor(seconds / 30));
  });

  test("when otpauth (an independent implementation) generates the RFC vectors, then they agree", () => {
    const totp = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromHex(RFC_SECRET),
      digits: 8,
      algorithm: "SHA1",
      period: 30,
    });
    for (const [seconds, eight] of RFC_VECTORS) expect(totp.generate({ timestamp: seconds * 1000 })).toBe(eight);
  });

  test("when the code is from step T-1 or T+1, then it is accepted with that step; T-2 and T+2 are refused", () => {
    const secret = generateTotpSecret();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromHex(secret), digits: 6, algorithm: "SHA1", period: 30 });
    const now = 1_800_000_015; // 15 s into step 60 000 000
    const step = Math.floor(now / 30);
    const codeAtStep = (s: number) => totp.generate({ timestamp: s * 30_000 + 1_000 });

    expect(matchTotpStep(secret, codeAtStep(step), at(now))).toBe(step);
    expect(matchTotpStep(secret, codeAtStep(step - 1), at(now))).toBe(step - 1);
    expect(matchTotpStep(secret, codeAtStep(step + 1), at(now))).toBe(step + 1);
    expect(matchTotpStep(secret, codeAtStep(step - 2), at(now))).toBeNull();
    expect(matchTotpStep(secret, codeAtStep(step + 2), at(now))).toBeNull();
  });

  // At 1111111109 s the code is "081804", at 59 s it is "287082" (RFC vectors above).
  test.each<[string, unknown, number]>([
    ["five digits", "81804", 1111111109],
    ["a leading space", " 081804", 1111111109],
    ["a trailing space", "081804 ", 1111111109],
    ["a plus sign", "+81804", 1111111109],
    ["a number instead of a string", 287082, 59],
    ["null", null, 59],
    ["fullwidth digits", "２８７０８２", 59],
  ])("when the code has %s, then it is refused even though its value matches", (_label, code, seconds) => {
    expect(matchTotpStep(RFC_SECRET, code, at(seconds))).toBeNull();
  });

  test("when speakeasy alone sees '+81804', ' 81804' or the number 287082, then it accepts them: the shape check must come first", () => {
    const verify = (token: unknown, time: number) =>
      speakeasy.totp.verifyDelta({ secret: RFC_SECRET, encoding: "hex", token: token as string, time, step: 30 });

    expect(verify("+81804", 1111111109)).toEqual({ delta: 0 });
    expect(verify(" 81804", 1111111109)).toEqual({ delta: 0 });
    expect(verify(287082, 59)).toEqual({ delta: 0 });
  });

  test("when a URI is made, then it names issuer and email and carries the secret in base32", () => {
    const secret = generateTotpSecret();
    const uri = totpUri(secret, "ana+shop@example.com");
    const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;

    expect(uri).toMatch(/^otpauth:\/\/totp\/LM%20Pix:ana%2Bshop%40example\.com\?secret=[A-Z2-7]{32}&issuer=LM%20Pix/);
    expect(parsed.secret.hex.toLowerCase()).toBe(secret);
    expect(parsed.label).toBe("ana+shop@example.com");
    expect(parsed.issuer).toBe("LM Pix");
    expect(Buffer.from(secret, "hex")).toHaveLength(20);
  });
});

describe("backup codes", () => {
  test("when generated, then ten distinct codes of ten characters, hashed with a key", () => {
    const codes = generateBackupCodes();
    const key = Buffer.alloc(32, 7);

    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{10}$/);
    const code = codes[0] ?? "";
    expect(hashBackupCode(key, code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashBackupCode(key, code)).not.toBe(hashBackupCode(Buffer.alloc(32, 8), code));
  });

  test("when typed in capitals it is the same code; other shapes are not codes", () => {
    expect(normalizeBackupCode("ABCDEFGH23")).toBe("abcdefgh23");
    expect(normalizeBackupCode("abcdefgh2")).toBeNull();
    expect(normalizeBackupCode(" abcdefgh23")).toBeNull();
    expect(normalizeBackupCode(1234567890)).toBeNull();
  });
});
