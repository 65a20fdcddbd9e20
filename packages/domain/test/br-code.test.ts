import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import jsQR from "jsqr";
import {
  brCodeCrc16,
  buildPixBrCode,
  createQrSymbol,
  generateTxid,
  optimalQrSegments,
  PIX_AUTOMATICO_GUI,
  sandboxPixLocation,
  QR_MASK_PATTERN,
  renderQrPngBase64,
  TXID_PATTERN,
  withRecurrenceAuthorization,
} from "../src";

describe("Pix BR Code and txid", () => {
  test("when a txid is generated, then it has 26 to 35 alphanumerics and differs each time", () => {
    const txids = Array.from({ length: 100 }, generateTxid);

    for (const txid of txids) expect(txid).toMatch(TXID_PATTERN);
    expect(new Set(txids).size).toBe(100);
  });

  test("when a sandbox code is built, then its location is the sandbox subdomain of the public host, port dropped", () => {
    const txid = generateTxid();

    const location = sandboxPixLocation("http://localhost:3000", txid);

    expect(sandboxPixLocation("https://pix.example.com.br:8443", "abc")).toBe("sandbox.pix.example.com.br/qr/abc");
    expect(location).toBe(`sandbox.localhost/qr/${txid}`);
    expect(isValidPixPayload(buildPixBrCode({ location, merchantName: "Loja" }))).toBe(true);
  });

  test("when the public host is too long for a BR Code location, then it refuses with a clear reason", () => {
    expect(() => sandboxPixLocation(`https://${"a".repeat(60)}.example.com`, generateTxid())).toThrow(/77 characters/);
  });

  test("when a code is built, then it is a valid dynamic BR Code (CRC16) carrying only the location", () => {
    const location = sandboxPixLocation("https://api.example.com", generateTxid());

    const code = buildPixBrCode({ location, merchantName: "Padaria São João do Norte Ltda" });

    expect(isValidPixPayload(code)).toBe(true);
    expect(getPixPayloadInfo(code)).toMatchObject({
      url: location,
      pointOfInitiation: "dynamic",
      merchantName: "Padaria Sao Joao do Norte",
      merchantCity: "SAO PAULO",
    });
    const tampered = code.slice(0, -1) + (code.endsWith("0") ? "1" : "0");
    expect(isValidPixPayload(tampered)).toBe(false);
  });

  test("when a QR image is rendered, then a PNG decoder reads exactly the code's modules, 4 pixels each, in a 2-module quiet zone", () => {
    const code = buildPixBrCode({
      location: sandboxPixLocation("https://api.example.com", generateTxid()),
      merchantName: "Loja",
    });

    const png = PNG.sync.read(Buffer.from(renderQrPngBase64(code), "base64"));

    const { modules } = createQrSymbol(code);
    const side = (modules.size + 4) * 4;
    expect([png.width, png.height]).toEqual([side, side]);
    const darkAt = (x: number, y: number) => png.data[(y * side + x) * 4] === 0;
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / 4) - 2;
        const col = Math.floor(x / 4) - 2;
        const inside = row >= 0 && row < modules.size && col >= 0 && col < modules.size;
        const expected = inside && modules.get(row, col) === 1;
        if (darkAt(x, y) !== expected) throw new Error(`pixel (${x}, ${y}) should be ${expected ? "dark" : "light"}`);
      }
    }
  });

  test("when QR images are decoded by a reader (jsQR), then each gives back exactly its BR Code", () => {
    for (const [host, name] of [
      ["https://api.example.com", "Loja"],
      ["https://pix.lojas-do-brasil.example.com.br", "Padaria Sao Joao do Norte Ltda"],
      ["http://localhost:3000", "Açaí da Esquina"],
    ] as const) {
      const code = buildPixBrCode({ location: sandboxPixLocation(host, generateTxid()), merchantName: name });
      const png = PNG.sync.read(Buffer.from(renderQrPngBase64(code), "base64"));

      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);

      expect(decoded?.data).toBe(code);
    }
  });

  test("when a text mixes digits, capitals and other characters, then each run gets the mode that costs the fewest bits", () => {
    expect(optimalQrSegments("", 1)).toEqual([]);
    expect(optimalQrSegments("0123456789", 1)).toEqual([{ data: "0123456789", mode: "numeric" }]);
    // Three digits inside capitals cost less as capitals than as a segment of their own (13 bits of header).
    expect(optimalQrSegments("ABC123DEF", 1)).toEqual([{ data: "ABC123DEF", mode: "alphanumeric" }]);
    expect(optimalQrSegments("pix/0123456789012345678901234567890/QR", 1)).toEqual([
      { data: Buffer.from("pix/"), mode: "byte" },
      { data: "0123456789012345678901234567890", mode: "numeric" },
      { data: "/QR", mode: "alphanumeric" },
    ]);
    // Seven digits amid bytes: a numeric segment of their own saves 6 bits at version 1 (byte counts take 8 bits); from
    // version 10 on, where a byte segment's count takes 16, one byte segment is cheaper.
    expect(optimalQrSegments("a1234567b", 1)).toEqual([
      { data: Buffer.from("a"), mode: "byte" },
      { data: "1234567", mode: "numeric" },
      { data: Buffer.from("b"), mode: "byte" },
    ]);
    expect(optimalQrSegments("a1234567b", 10)).toEqual([{ data: Buffer.from("a1234567b"), mode: "byte" }]);
  });

  test("when BR Codes are drawn, then each symbol is as small as qrcode's own search makes it, mask pattern 2", () => {
    for (let i = 0; i < 200; i++) {
      const code = buildPixBrCode({
        location: sandboxPixLocation(
          i % 2 ? "https://pix.lm-bench.example" : "https://api.example.com.br",
          generateTxid(),
        ),
        merchantName: i % 2 ? "Loja Benchmark 12" : "Padaria Sao Joao 1234567",
      });

      const ours = createQrSymbol(code);

      const theirs = QRCode.create(code, { errorCorrectionLevel: "M", maskPattern: QR_MASK_PATTERN });
      expect(ours.version).toBeLessThanOrEqual(theirs.version);
      expect(ours.maskPattern).toBe(QR_MASK_PATTERN);
      const text = (data: string | Uint8Array) => (typeof data === "string" ? data : Buffer.from(data).toString());
      expect(ours.segments.map((segment) => text(segment.data)).join("")).toBe(code);
    }
  });
});

describe("a recurrence's authorization BR Code", () => {
  test("when a charge's code gets the authorization, then it is still a valid BR Code and carries field 80 after the charge's fields", () => {
    const charge = buildPixBrCode({ location: "sandbox.pix.example.com/qr/abc123", merchantName: "Loja da Ana" });
    const location = "sandbox.pix.example.com/rec/rec_01M8CMA2Q9E3WJ5V0T7N4XKH6R";

    const code = withRecurrenceAuthorization(charge, location);

    expect(isValidPixPayload(code)).toBe(true);
    expect(code.startsWith(charge.slice(0, -8))).toBe(true);
    expect(code).toContain(
      `80${String(4 + PIX_AUTOMATICO_GUI.length + 4 + location.length)}0025${PIX_AUTOMATICO_GUI}01`,
    );
    expect(brCodeCrc16(code.slice(0, -4))).toBe(code.slice(-4));
    expect(brCodeCrc16(charge.slice(0, -4))).toBe(charge.slice(-4));
  });
});
