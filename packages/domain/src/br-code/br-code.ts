/**
 * The Pix "copia e cola" string (EMV BR Code, CRC16 per the Manual do BR Code) and its QR image. Every charge gets a
 * dynamic code (point of initiation `12`, single use). The sandbox's point at a `sandbox.` subdomain of
 * `PUBLIC_BASE_URL`'s host, so that a test code is never a payable key (DESIGN §5); a bank's charge carries the code
 * the bank returned, whose QR image is drawn here too (DESIGN §9). A reusable QR code gets a static code (no point of
 * initiation, payable any number of times) built here around the receiving account's Pix key (DESIGN §13).
 */
import { generatePixPayload } from "@brazilian-utils/brazilian-utils";
import { constants, crc32, deflateSync } from "node:zlib";
import QRCode from "qrcode";
import { optimalQrSegments } from "./qr-segments";

/**
 * City written in the BR Code. The service does not model a seller's address, and a dynamic code's payer sees the
 * data its location serves, so a fixed city is written (field 60 is mandatory).
 */
export const BR_CODE_MERCHANT_CITY = "SAO PAULO";

/** The Manual de Padrões para Iniciação do Pix limits the location to 77 characters. */
const MAX_LOCATION_LENGTH = 77;

/**
 * The location (URL without scheme) of a sandbox charge's dynamic BR Code: `sandbox.<host>/qr/<txid>`, `<host>` being
 * `PUBLIC_BASE_URL`'s host name (port dropped: the BR Code takes none), so that a test code is never payable. A
 * bank's charge carries the bank's own code (DESIGN §9). The configuration refuses hosts too long for a location
 * (packages/config), so every charge gets a valid code.
 * @throws Error when the location would exceed 77 characters (a configuration that bypassed that check)
 */
export function sandboxPixLocation(publicBaseUrl: string, txid: string): string {
  const location = `sandbox.${new URL(publicBaseUrl).hostname}/qr/${txid}`;
  if (location.length > MAX_LOCATION_LENGTH) {
    throw new Error(`BR Code location exceeds ${MAX_LOCATION_LENGTH} characters: shorten the PUBLIC_BASE_URL host`);
  }
  return location;
}

/**
 * The location of a sandbox recurrence's authorization (DESIGN §14, the standard's `locrec`):
 * `sandbox.<host>/rec/<id>`, never served, like a sandbox charge's.
 * @throws Error when it would exceed 77 characters (see {@link sandboxPixLocation})
 */
export function sandboxRecurrenceLocation(publicBaseUrl: string, recurrenceId: string): string {
  const location = `sandbox.${new URL(publicBaseUrl).hostname}/rec/${recurrenceId}`;
  if (location.length > MAX_LOCATION_LENGTH) {
    throw new Error(`BR Code location exceeds ${MAX_LOCATION_LENGTH} characters: shorten the PUBLIC_BASE_URL host`);
  }
  return location;
}

/** The GUI of a BR Code's Pix Automático field (80), as the Manual de Padrões para Iniciação do Pix names it. */
export const PIX_AUTOMATICO_GUI = "br.gov.bcb.pix.automatico";

/** One EMV field: its id, its value's length in two digits, its value. */
function emvField(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of `text`'s UTF-8 bytes, as four upper-case hex digits: the
 * BR Code's field 63.
 */
export function brCodeCrc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * `brCode` (a BR Code ending in its CRC field) with a recurrence's authorization added (field 80: the Pix Automático
 * GUI and `location`, the standard's `locrec`), its CRC computed again: the QR code of journeys 2 and 3 (DESIGN §14).
 */
export function withRecurrenceAuthorization(brCode: string, location: string): string {
  const body = brCode.slice(0, -8);
  const payload = `${body}${emvField("80", emvField("00", PIX_AUTOMATICO_GUI) + emvField("01", location))}6304`;
  return `${payload}${brCodeCrc16(payload)}`;
}

/**
 * Builds the dynamic BR Code of a charge with @brazilian-utils `generatePixPayload`.
 * @param input.merchantName - the store's name; folded to ASCII and cut to 25 characters by the library
 * @throws Error when the library refuses the parameters (a location that is not a valid host and path)
 */
export function buildPixBrCode(input: { location: string; merchantName: string }): string {
  const payload = generatePixPayload({
    url: input.location,
    merchantName: input.merchantName,
    merchantCity: BR_CODE_MERCHANT_CITY,
  });
  if (payload === null) throw new Error(`cannot build a BR Code for location ${input.location}`);
  return payload;
}

/** What a static BR Code carries (DESIGN §13). */
export interface StaticBrCodeInput {
  /** The receiving account's Pix key (DICT form, or any form `getPixKeyInfo` normalises). */
  pixKey: string;
  /** Folded to ASCII and cut to 25 characters by the library. */
  merchantName: string;
  /** Centavos every payment must be, written in the code (field 54); null lets the payer type the amount. */
  amount: number | null;
  /** 1 to 25 alphanumerics (field 62-05): the payments to the code carry it. */
  txid: string;
  /** Shown to the payer (field 26-02), folded to ASCII and cut to what the template holds. */
  description: string | null;
}

/**
 * Builds the static BR Code of a reusable QR code with @brazilian-utils `generatePixPayload`: no point of initiation
 * (so payable more than once), the Pix key, the amount only when fixed, and the txid.
 * @throws Error when the library refuses the parameters (a key that is not a Pix key, a txid too long)
 */
export function buildStaticPixBrCode(input: StaticBrCodeInput): string {
  const payload = generatePixPayload({
    key: input.pixKey,
    merchantName: input.merchantName,
    merchantCity: BR_CODE_MERCHANT_CITY,
    txid: input.txid,
    ...(input.amount === null ? {} : { amount: input.amount / 100 }),
    ...(input.description === null ? {} : { description: input.description }),
  });
  if (payload === null) throw new Error(`cannot build a static BR Code for txid ${input.txid}`);
  return payload;
}

/**
 * The QR mask pattern every code is drawn with (ISO/IEC 18004 §7.8: patterns 0 to 7; the symbol's format information
 * names it, so every decoder reads every pattern). The standard's encoder scores all eight with its penalty rules
 * (runs, 2x2 blocks, finder-like sequences, dark/light balance) and keeps the lowest, which took 0.6 of the 0.8 ms
 * qrcode spends per code, the largest single cost of a charge creation. A BR Code always has the same
 * structure and length, so one pattern serves them all nearly as well: measured over 300 generated BR Codes, pattern
 * 2 (`column mod 3 = 0`) is the lowest-penalty choice for 36 % of them and scores on average 4.8 % above the lowest
 * (the worst fixed pattern, 1, 21.6 %). The br-code tests decode the images with jsQR.
 */
export const QR_MASK_PATTERN = 2;

/**
 * The QR symbol of `brCode`: error correction `M`, mask {@link QR_MASK_PATTERN}, the smallest version, segments split
 * by {@link optimalQrSegments} (for versions 1 to 9 first, the size of every BR Code; again for the version found when
 * it is larger, since the segments' headers grow at versions 10 and 27).
 */
export function createQrSymbol(brCode: string): QRCode.QRCode {
  const options = { errorCorrectionLevel: "M", maskPattern: QR_MASK_PATTERN } as const;
  const symbol = QRCode.create(optimalQrSegments(brCode, 1), options);
  return symbol.version <= 9 ? symbol : QRCode.create(optimalQrSegments(brCode, symbol.version), options);
}

/** Quiet zone around the symbol, modules (ISO/IEC 18004 asks for 4; Pix apps read 2, and the image stays smaller). */
const QR_MARGIN_MODULES = 2;
/** Pixels per module. */
const QR_SCALE = 4;
/**
 * zlib settings of the image data: a 2 KB window, because the input is about 6 KB of 29-byte scanlines (setting up
 * zlib's default 32 KB window cost more than the compression itself), and the `Z_FILTERED` strategy, meant for
 * filtered image data like ours (mostly the zero scanlines of the Up filter): as fast as the default strategy here,
 * and the image 14 % smaller (476 bytes against 553 on average over 2,000 BR Codes).
 */
const PNG_DEFLATE_OPTIONS = { level: 6, windowBits: 11, memLevel: 8, strategy: constants.Z_FILTERED };
/** PNG scanline filters (PNG spec §9.2): `None` keeps the bytes, `Up` stores each byte minus the one above it. */
const PNG_FILTER_NONE = 0;
const PNG_FILTER_UP = 2;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC-32 of type and data (PNG spec §5.3). */
function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const chunk = Buffer.alloc(8 + typeAndData.length);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 4 + typeAndData.length);
  return chunk;
}

/**
 * The QR code of `brCode` as a PNG, base64 encoded: error correction `M` (the level Pix apps print), mask
 * {@link QR_MASK_PATTERN}, 4 pixels per module and a 2-module quiet zone.
 *
 * Every charge creation renders one (its reply and its `transaction.created` event carry it), so the image is written
 * here as a 1-bit grayscale PNG straight from qrcode's module matrix: qrcode's own PNG path draws an RGBA bitmap
 * that pngjs (which writes only 8- and 16-bit depths) converts, filters and deflates, 32 times the data. Measured on
 * the development machine: about 4 ms and 2.3 KB of base64 per code before, about 1 ms and 0.9 KB now.
 * A scanline equal to the one above it (3 of every 4, and the quiet zone's) is written with the `Up` filter, as zero
 * bytes: zlib compresses those in about two thirds of the time the repeated bytes took, a few bytes smaller.
 */
export function renderQrPngBase64(brCode: string): string {
  const { modules } = createQrSymbol(brCode);
  const side = (modules.size + 2 * QR_MARGIN_MODULES) * QR_SCALE;
  const rowBytes = 1 + Math.ceil(side / 8); // filter byte + 1 bit per pixel, 1 = white
  // Every scanline starts as "same as the one above": the Up filter and zero differences.
  const raw = Buffer.alloc(rowBytes * side);
  for (let y = 0; y < side; y++) raw[y * rowBytes] = PNG_FILTER_UP;
  /** Makes scanline `y` a white one written as is (None), and returns its pixel bytes. */
  const whiteRow = (y: number): Buffer => {
    raw[y * rowBytes] = PNG_FILTER_NONE;
    return raw.fill(0xff, y * rowBytes + 1, (y + 1) * rowBytes).subarray(y * rowBytes + 1, (y + 1) * rowBytes);
  };
  whiteRow(0);
  // The first scanline of each module row is drawn (dark modules cleared to 0); the next QR_SCALE - 1 repeat it.
  for (let moduleRow = 0; moduleRow < modules.size; moduleRow++) {
    const pixels = whiteRow((moduleRow + QR_MARGIN_MODULES) * QR_SCALE);
    for (let moduleCol = 0; moduleCol < modules.size; moduleCol++) {
      if (!modules.get(moduleRow, moduleCol)) continue;
      const x = (moduleCol + QR_MARGIN_MODULES) * QR_SCALE;
      for (let pixel = x; pixel < x + QR_SCALE; pixel++) pixels[pixel >> 3]! &= ~(0x80 >> (pixel & 7));
    }
  }
  whiteRow((modules.size + QR_MARGIN_MODULES) * QR_SCALE);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: grayscale (compression, filter and interlace methods stay 0)
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw, PNG_DEFLATE_OPTIONS)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]).toString("base64");
}
