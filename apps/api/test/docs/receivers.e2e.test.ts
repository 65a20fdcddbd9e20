/**
 * The receivers of docs/receiving-webhooks.md, run as an integrator runs them: each one (Node.js, Python) is started as
 * its own process with the secret of an endpoint registered through the panel, a test charge is paid, and the worker's
 * real delivery must be verified by the guide's code; a request whose body was changed after signing, or that was
 * signed with another secret, must be refused with 401 (SPEC "Receiver obligations"). The PHP and Go receivers are not
 * run here (neither language is installed); they implement the same steps.
 */
import type { ChildProcess } from "node:child_process";
import { generateWebhookSecret, signatureHeader } from "@lm/domain";
import { freePort, REPO_ROOT, startWatchedProcess, waitUntil } from "@lm/testing";
import { useE2eTestContext } from "../e2e/support/e2e-harness";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";

jest.setTimeout(60_000);

/** How each receiver is started, from the repository root, as the guide says. */
const RECEIVERS = [
  { language: "Node.js", command: "node", args: ["docs/receivers/node/receiver.mjs"] },
  { language: "Python", command: "python3", args: ["docs/receivers/python/receiver.py"] },
] as const;

/** A receiver process, the lines of its standard output, and the URL it receives at. */
interface RunningReceiver {
  child: ChildProcess;
  lines(): string[];
  url: string;
}

/** Starts a receiver with `secret` on `port` and waits for its `listening` line. */
async function startReceiver(
  receiver: (typeof RECEIVERS)[number],
  secret: string,
  port: number,
): Promise<RunningReceiver> {
  const started = startWatchedProcess(receiver.command, [...receiver.args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, WEBHOOK_SECRET: secret, PORT: String(port) },
  });
  await started.waitFor(/^listening on/m, 10_000);
  return { child: started.child, lines: started.stdoutLines, url: `http://127.0.0.1:${port}/webhooks` };
}

/** Ends a receiver started by this file and waits for its exit. */
async function stopReceiver(running: RunningReceiver | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once("exit", resolve));
  running.child.kill("SIGTERM");
  await exited;
}

/** POSTs `body` to the receiver with an `X-Signature` made by the service's own signer under `secret`. */
async function postSigned(url: string, body: string, signedBody: string, secret: string) {
  const header = signatureHeader([secret], Math.floor(Date.now() / 1000), signedBody);
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-signature": header },
    body,
  });
}

describe.each(RECEIVERS)("the guide's $language receiver", (receiver) => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  let running: RunningReceiver | undefined;
  let secret: string;
  afterAll(async () => {
    await stopReceiver(running);
  });

  test("when a test charge is paid, then the receiver verifies the worker's transaction.paid delivery and prints its event id", async () => {
    const owner = await endpointOwner(ctx);
    const port = await freePort();
    const endpoint = await createEndpoint(owner, {
      url: `http://127.0.0.1:${port}/webhooks`,
      events: ["transaction.paid"],
    });
    secret = endpoint.secret;
    running = await startReceiver(receiver, secret, port);
    const merchant = await ownerMerchantClient(ctx, owner, "test");
    const charge = (await merchant.post("/v1/transactions", chargeBody()).expect(201)).body;

    await merchant.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);

    const event = await waitUntil(
      "the transaction.paid event",
      () =>
        ctx.db.event.findFirst({
          where: { type: "transaction.paid", data: { path: ["id"], equals: charge.id } },
        }),
      { timeoutMs: 20_000 },
    );
    const verified = `verified transaction.paid ${event.id}`;
    await waitUntil("the receiver's verified line", () => running!.lines().includes(verified), { timeoutMs: 20_000 });
    const delivery = await waitUntil(
      "the delivery to succeed",
      () => ctx.db.webhookDelivery.findFirst({ where: { endpoint_id: endpoint.id, status: "succeeded" } }),
      { timeoutMs: 10_000 },
    );
    expect(delivery).toMatchObject({ event_id: event.id, response_status: 200 });
    expect(running.lines().filter((line) => line.startsWith("rejected"))).toEqual([]);
  });

  test("when a request is signed with the right secret, then 200; when its body was changed after signing, or it was signed with another secret, then 401 and a rejected line", async () => {
    const body = JSON.stringify({ id: "evt_01JDA7ZQ8T2VYH1X3M5N9P4K6R", object: "event", type: "ping", data: {} });
    const tampered = body.replace('"ping"', '"transaction.paid"');

    const genuine = await postSigned(running!.url, body, body, secret);
    const changed = await postSigned(running!.url, tampered, body, secret);
    const wrongSecret = await postSigned(running!.url, body, body, generateWebhookSecret());

    expect([genuine.status, changed.status, wrongSecret.status]).toEqual([200, 401, 401]);
    await waitUntil(
      "the receiver's lines",
      () => running!.lines().filter((l) => l.startsWith("rejected")).length >= 2,
      {
        timeoutMs: 5_000,
      },
    );
    expect(running!.lines()).toEqual(
      expect.arrayContaining(["verified ping evt_01JDA7ZQ8T2VYH1X3M5N9P4K6R", "rejected: signature mismatch"]),
    );
    expect(running!.lines().filter((line) => line === "rejected: signature mismatch")).toHaveLength(2);
  });
});
