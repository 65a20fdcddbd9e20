/**
 * The receiver's own check of `X-Signature` (SPEC "Receiver obligations", DESIGN §4 "Signature"), written here without
 * the project's code, so that a test of a delivery verifies it as an integrator would.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ReceivedRequest } from "@lm/testing";

/** Whether one `v1` of `request`'s `X-Signature` is the HMAC-SHA256 under `secret` of `<t>.` and the raw body. */
export function signedBy(secret: string, request: ReceivedRequest): boolean {
  const parts = String(request.headers["x-signature"])
    .split(",")
    .map((part) => part.split("=") as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1];
  const expected = createHmac("sha256", secret).update(`${t}.`).update(request.rawBody).digest();
  return parts.some(([k, v]) => k === "v1" && v.length === 64 && timingSafeEqual(Buffer.from(v, "hex"), expected));
}
