import { signatureHeader, verifySignatureHeader } from "../../src";

// Expected values computed once with an independent implementation (Python's hmac module) and hard-coded here.
const SECRET_ONE = "whsec_test_secret_one_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const SECRET_TWO = "whsec_test_secret_two_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
const BODY = '{"id":"evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z","object":"event","type":"transaction.paid"}';
const HEX_ONE = "1ab8a556b3860cb8c298428fd5a2691a512d5f4f3e82589efb1b48fb1e2e0544";
const HEX_TWO = "2ed9ca9055acc7b6ec590e18fbc64f26b7fd8ec1d003eb7e59e98b69f9f5cced";
const T = 1_700_000_000;
const AT_T = new Date(T * 1000);

describe("signatureHeader", () => {
  test.each([
    [[SECRET_ONE], T, BODY, `t=${T},v1=${HEX_ONE}`],
    [[SECRET_ONE, SECRET_TWO], T, BODY, `t=${T},v1=${HEX_ONE},v1=${HEX_TWO}`],
    [[SECRET_TWO, SECRET_ONE], T, BODY, `t=${T},v1=${HEX_TWO},v1=${HEX_ONE}`],
    [
      [SECRET_ONE],
      1_763_700_000,
      Buffer.from('{"name":"João ✓"}', "utf8"),
      "t=1763700000,v1=6b9c8cd14434cf12cce560ad818c70f36b920690b7565f0c2a55c609a6750558",
    ],
    [["whsec_x"], 0, "", "t=0,v1=4e8c2621ad6b7e8ee9325e803d12429025d82e5abc79b476cf0efabfaf9a6e57"],
  ])("when secrets %j sign at t=%s, then the header is the fixed vector", (secrets, t, body, expected) => {
    expect(signatureHeader(secrets, t, body)).toBe(expected);
  });

  test("when a body is given as a string or as its UTF-8 bytes, then the header is the same", () => {
    const text = '{"name":"João ✓"}';
    expect(signatureHeader([SECRET_ONE], T, text)).toBe(signatureHeader([SECRET_ONE], T, Buffer.from(text, "utf8")));
  });

  test("when no secret or a fractional timestamp is given, then it refuses to sign", () => {
    expect(() => signatureHeader([], T, BODY)).toThrow(/secret/);
    expect(() => signatureHeader([SECRET_ONE], 1.5, BODY)).toThrow(/timestamp/);
  });
});

describe("verifySignatureHeader", () => {
  const options = { toleranceSeconds: 300, now: AT_T };

  test("when either v1 entry matches either accepted secret, then it verifies", () => {
    const header = `t=${T},v1=${HEX_ONE},v1=${HEX_TWO}`;

    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, options)).toEqual({ ok: true, timestampSeconds: T });
    expect(verifySignatureHeader(header, [SECRET_TWO], BODY, options)).toEqual({ ok: true, timestampSeconds: T });
    expect(verifySignatureHeader(`t=${T},v1=${HEX_TWO}`, [SECRET_ONE, SECRET_TWO], BODY, options).ok).toBe(true);
  });

  test("when entries of another scheme come along, then they are ignored", () => {
    const header = `t=${T},v0=abc,v1=${HEX_ONE}`;
    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, options).ok).toBe(true);
  });

  test("when the body, the secret or the timestamp differ, then no signature matches", () => {
    const header = `t=${T},v1=${HEX_ONE}`;

    expect(verifySignatureHeader(header, [SECRET_ONE], `${BODY} `, options)).toEqual({
      ok: false,
      reason: "no_matching_signature",
    });
    expect(verifySignatureHeader(header, [SECRET_TWO], BODY, options).ok).toBe(false);
    expect(verifySignatureHeader(`t=${T + 1},v1=${HEX_ONE}`, [SECRET_ONE], BODY, options).ok).toBe(false);
  });

  test("when the timestamp is outside the tolerance on either side, then it is refused", () => {
    const header = `t=${T},v1=${HEX_ONE}`;
    const late = { toleranceSeconds: 300, now: new Date((T + 301) * 1000) };
    const early = { toleranceSeconds: 300, now: new Date((T - 301) * 1000) };
    const edge = { toleranceSeconds: 300, now: new Date((T + 300) * 1000) };

    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, late)).toEqual({
      ok: false,
      reason: "timestamp_outside_tolerance",
    });
    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, early).ok).toBe(false);
    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, edge).ok).toBe(true);
  });

  test.each([
    [undefined],
    [""],
    [`v1=${HEX_ONE}`],
    [`t=${T}`],
    [`t=${T},t=${T},v1=${HEX_ONE}`],
    [`t=abc,v1=${HEX_ONE}`],
    [`t=${T},v1=${HEX_ONE.toUpperCase()}`],
    [`t=${T},v1=${HEX_ONE.slice(2)}`],
    [`t=${T}, v1=${HEX_ONE}`],
    [`t=${T},v1`],
  ])("when the header is %p, then it is malformed", (header) => {
    expect(verifySignatureHeader(header, [SECRET_ONE], BODY, options)).toEqual({
      ok: false,
      reason: "malformed_header",
    });
  });
});
