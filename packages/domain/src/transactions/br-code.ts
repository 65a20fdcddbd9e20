/**
 * The Pix "copia e cola" string (EMV BR Code, CRC16 per the Manual do BR Code) and its QR image. Every charge gets a
 * dynamic code (point of initiation `12`, single use) whose location points at our host: in test mode a `sandbox.`
 * subdomain of `PUBLIC_BASE_URL`'s host, so that a test code is never a payable key (DESIGN §5).
 */
import { generatePixPayload } from "@brazilian-utils/brazilian-utils";
import QRCode from "qrcode";

/**
 * City written in the BR Code. The service does not model a seller's address, and a dynamic code's payer sees the
 * data its location serves, so a fixed city is written (field 60 is mandatory).
 */
export const BR_CODE_MERCHANT_CITY = "SAO PAULO";

/** The Manual de Padrões para Iniciação do Pix limits the location to 77 characters. */
const MAX_LOCATION_LENGTH = 77;

/**
 * The location (URL without scheme) of a charge's dynamic BR Code: `<host>/qr/<txid>` in live mode and
 * `sandbox.<host>/qr/<txid>` in test mode, `<host>` being `PUBLIC_BASE_URL`'s host name (port dropped: the BR Code
 * takes none).
 * @throws Error when the location would exceed 77 characters (a `PUBLIC_BASE_URL` host over about 40 characters)
 */
export function pixLocation(publicBaseUrl: string, mode: "live" | "test", txid: string): string {
  const host = new URL(publicBaseUrl).hostname;
  const location = `${mode === "test" ? "sandbox." : ""}${host}/qr/${txid}`;
  if (location.length > MAX_LOCATION_LENGTH) {
    throw new Error(`BR Code location exceeds ${MAX_LOCATION_LENGTH} characters: shorten the PUBLIC_BASE_URL host`);
  }
  return location;
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

/**
 * PNG encoder (pngjs) options that qrcode passes through: 8-bit grayscale, and the "Up" filter, which zeroes every row
 * that repeats the one above (each module is `scale` rows tall). Measured: about half the time and size of the
 * defaults (RGBA, adaptive filter), which matters because every charge renders its QR code.
 */
const PNG_OPTIONS = { deflateLevel: 9, colorType: 0, filterType: 2 };

/** The QR code of `brCode` as a PNG, base64 encoded (error correction `M`, the level Pix apps print). */
export async function renderQrPngBase64(brCode: string): Promise<string> {
  const png = await QRCode.toBuffer(brCode, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 2,
    scale: 4,
    rendererOpts: PNG_OPTIONS,
  });
  return png.toString("base64");
}
