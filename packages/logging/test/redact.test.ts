import { redact, REDACTED } from "../src";

describe("redact", () => {
  test("when nested objects carry credentials, then their values are replaced whatever the key's case or separator", () => {
    const out = redact({
      headers: { Authorization: "Bearer x", cookie: "lm.session=abc", "X-Acquirer-Signature": "t=1,v1=ff" },
      body: {
        password: "hunter2hunter2",
        newPassword: "p",
        invite_token: "t",
        totpURI: "otpauth://",
        backupCodes: ["a"],
      },
      customer: { document: "11144477735", name: "Maria" },
      status: 200,
    });

    expect(out).toEqual({
      headers: { Authorization: REDACTED, cookie: REDACTED, "X-Acquirer-Signature": REDACTED },
      body: {
        password: REDACTED,
        newPassword: REDACTED,
        invite_token: REDACTED,
        totpURI: REDACTED,
        backupCodes: REDACTED,
      },
      customer: { document: REDACTED, name: "Maria" },
      status: 200,
    });
  });

  test("when a free-text string contains one of our secrets, then the secret part is masked", () => {
    const out = redact("created sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345 and whsec_abc-DEF_123");

    expect(out).toBe(`created sk_live_${REDACTED} and whsec_${REDACTED}`);
  });

  test("when an object refers to itself, then the cycle is cut instead of overflowing", () => {
    const a: Record<string, unknown> = { name: "a" };
    a.self = a;

    expect(redact(a)).toEqual({ name: "a", self: "[circular]" });
  });
});
