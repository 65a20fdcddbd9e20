/**
 * DESIGN §16 "Asymmetric signatures" and "Custom headers", end to end: the worker's deliveries to a
 * `standard_webhooks_ed25519` endpoint verify with the `whpk_` public key the panel showed, by an implementation of
 * the Standard Webhooks asymmetric form written here with Node's `crypto.verify` alone (nothing of the service's), and
 * a rotation gives two signatures, the new key's first, for the grace; an endpoint's custom headers arrive with every
 * attempt beside the service's own.
 */
import { createPublicKey, verify } from "node:crypto";
import { useWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "@lm/testing";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(40_000);

/** RFC 8410: the DER header of an Ed25519 public key (SubjectPublicKeyInfo), before its raw 32 bytes. */
const SPKI_ED25519_HEADER = Buffer.from("302a300506032b6570032100", "hex");
/** How far a delivery's timestamp may be from now (the Standard Webhooks libraries' tolerance), seconds. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Standard Webhooks' asymmetric verification: for each `v1a,<base64>` entry of `webhook-signature`, whether it is an
 * Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<raw body>` under `publicKey` (`whpk_` + base64 of the raw
 * key). Throws when the headers are missing or the timestamp is out of tolerance, as a receiver would refuse.
 */
function ed25519Entries(publicKey: string, request: ReceivedRequest): boolean[] {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signature = request.headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signature !== "string") {
    throw new Error("missing webhook-id, webhook-timestamp or webhook-signature");
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw new Error("timestamp too far");
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ""), "base64");
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_HEADER, raw]), format: "der", type: "spki" });
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), request.rawBody]);
  return signature.split(" ").map((entry) => {
    const [version, encoded] = entry.split(",");
    return version === "v1a" && encoded !== undefined && verify(null, content, key, Buffer.from(encoded, "base64"));
  });
}

describe("Ed25519 signatures and custom headers (DESIGN §16)", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  test("when a charge is paid, then the Ed25519 endpoint's delivery verifies with its published public key only, with its custom headers beside the service's", async () => {
    const owner = await endpointOwner(ctx);
    const signed = await createEndpoint(owner, {
      url: `${receiver.url}/ed25519`,
      events: ["transaction.paid"],
      signature_scheme: "standard_webhooks_ed25519",
      headers: { "X-Store-Token": "tok_9a8b7c6d5e4f3a2b", "X-Tenant": "loja-ana" },
    });
    const other = await createEndpoint(owner, {
      url: `${receiver.url}/other`,
      events: ["transaction.paid"],
      signature_scheme: "standard_webhooks_ed25519",
    });
    const api = await ownerMerchantClient(ctx, owner, "test");

    const charge = (await api.post("/v1/transactions", chargeBody()).expect(201)).body;
    await api.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);

    const [delivery] = await receiver.waitForRequests(1, { path: "/ed25519", timeoutMs: 20_000 });
    const envelope = JSON.parse(delivery!.rawBody.toString("utf8"));
    expect(envelope).toMatchObject({ type: "transaction.paid", data: { object: { id: charge.id } } });
    expect(delivery!.headers).toMatchObject({
      "x-store-token": "tok_9a8b7c6d5e4f3a2b",
      "x-tenant": "loja-ana",
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-event-id": envelope.id,
      "webhook-id": envelope.id,
      "webhook-signature": expect.stringMatching(/^v1a,[A-Za-z0-9+/]{86}==$/),
    });
    expect(delivery!.headers["x-signature"]).toBeUndefined();
    expect(signed.secret).toBeUndefined();
    expect(ed25519Entries(signed.public_key as string, delivery!)).toEqual([true]);
    expect(ed25519Entries(other.public_key as string, delivery!)).toEqual([false]);
    // A body changed by one byte no longer verifies.
    const tampered = { ...delivery!, rawBody: Buffer.from(delivery!.rawBody.toString("utf8").replace(/}$/, " }")) };
    expect(ed25519Entries(signed.public_key as string, tampered)).toEqual([false]);
    // The other endpoint, without custom headers, gets none.
    const [plain] = await receiver.waitForRequests(1, { path: "/other" });
    expect(plain!.headers["x-store-token"]).toBeUndefined();
  });

  test("when the key is rotated, then during the grace each delivery carries two v1a signatures, the new public key's first", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, {
      url: `${receiver.url}/rotated`,
      signature_scheme: "standard_webhooks_ed25519",
    });
    const rotated = (await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200)).body;

    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/ping`).expect(202);

    const [ping] = await receiver.waitForRequests(1, { path: "/rotated" });
    expect(ping!.headers["webhook-signature"]).toMatch(/^v1a,[A-Za-z0-9+/]{86}== v1a,[A-Za-z0-9+/]{86}==$/);
    expect(ed25519Entries(rotated.public_key, ping!)).toEqual([true, false]);
    expect(ed25519Entries(endpoint.public_key as string, ping!)).toEqual([false, true]);
    expect(JSON.parse(ping!.rawBody.toString("utf8"))).toMatchObject({ type: "ping" });
  });
});
