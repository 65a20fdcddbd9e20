import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { PNG } from "pngjs";
import jsQR from "jsqr";
import {
  buildStaticPixBrCode,
  generateStaticTxid,
  paymentChargeTxid,
  PAYMENT_TXID_PATTERN,
  renderQrPngBase64,
  SANDBOX_PIX_KEY,
  sandboxEndToEndId,
  TXID_PATTERN,
} from "../src";

/** The CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) of `text`, as the Manual do BR Code computes field 63. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** The top-level fields of an EMV payload, by id. */
function emvFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < payload.length;) {
    const length = Number(payload.slice(at + 2, at + 4));
    fields.set(payload.slice(at, at + 2), payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

describe("the static BR Code of a reusable QR code", () => {
  test("when a code of a fixed amount is built, then it is a static BR Code (no point of initiation) with the key, amount, txid and a valid CRC16", () => {
    const txid = generateStaticTxid();

    const code = buildStaticPixBrCode({
      pixKey: SANDBOX_PIX_KEY,
      merchantName: "Padaria São João do Norte Ltda",
      amount: 1990,
      txid,
      description: "Pão de queijo",
    });

    const fields = emvFields(code);
    expect(fields.get("00")).toBe("01");
    expect(fields.has("01")).toBe(false);
    expect(fields.get("54")).toBe("19.90");
    expect(fields.get("53")).toBe("986");
    expect(fields.get("62")).toBe(`05${String(txid.length).padStart(2, "0")}${txid}`);
    expect(fields.get("63")).toBe(crc16(code.slice(0, -4)));
    expect(isValidPixPayload(code)).toBe(true);
    expect(getPixPayloadInfo(code)).toEqual({
      key: SANDBOX_PIX_KEY,
      amount: 19.9,
      txid,
      description: "Pao de queijo",
      merchantName: "Padaria Sao Joao do Norte",
      merchantCity: "SAO PAULO",
      pointOfInitiation: "static",
    });
  });

  test("when a code without an amount is built, then it has no amount field and the payer types it", () => {
    const code = buildStaticPixBrCode({
      pixKey: SANDBOX_PIX_KEY,
      merchantName: "Loja",
      amount: null,
      txid: "abc",
      description: null,
    });

    const fields = emvFields(code);
    expect(fields.has("54")).toBe(false);
    expect(fields.get("63")).toBe(crc16(code.slice(0, -4)));
    expect(getPixPayloadInfo(code)).toEqual({
      key: SANDBOX_PIX_KEY,
      txid: "abc",
      merchantName: "Loja",
      merchantCity: "SAO PAULO",
      pointOfInitiation: "static",
    });
  });

  test("when its QR image is decoded by a reader (jsQR), then it gives back exactly the code", () => {
    const code = buildStaticPixBrCode({
      pixKey: "pix@loja.example.com.br",
      merchantName: "Loja",
      amount: 123_456,
      txid: generateStaticTxid(),
      description: "Doacao",
    });
    const png = PNG.sync.read(Buffer.from(renderQrPngBase64(code), "base64"));

    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(code);
  });

  test("when the key is not a Pix key, then building refuses it", () => {
    expect(() =>
      buildStaticPixBrCode({ pixKey: "not a key", merchantName: "Loja", amount: 100, txid: "abc", description: null }),
    ).toThrow(/static BR Code/);
  });

  test("when txids are made, then a code's has 25 alphanumerics (never a charge's length) and a payment's charge's is derived from the payment alone", () => {
    const codes = Array.from({ length: 100 }, generateStaticTxid);
    const payment = sandboxEndToEndId(new Date());

    for (const txid of codes) {
      expect(txid).toMatch(/^[A-Za-z0-9]{25}$/);
      expect(txid).toMatch(PAYMENT_TXID_PATTERN);
      expect(txid).not.toMatch(TXID_PATTERN);
    }
    expect(new Set(codes).size).toBe(100);
    expect(paymentChargeTxid(payment)).toMatch(TXID_PATTERN);
    expect(paymentChargeTxid(payment)).toBe(paymentChargeTxid(payment));
    expect(paymentChargeTxid(payment)).not.toBe(paymentChargeTxid(sandboxEndToEndId(new Date())));
  });
});
