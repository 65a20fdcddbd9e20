/**
 * DESIGN §16 "Ordering", end to end: 200 charges made one after the other fan out to a FIFO endpoint whose receiver
 * fails at random (a seeded draw, so a failure is reproducible). The receiver sees one attempt at a time, and the
 * first success of each event in the order the events were made: a failing event holds the ones behind it through its
 * own retries (the test schedule's), then lets the next go.
 */
import { useWebhookReceiver, waitUntil, type ScriptedAnswer, type WebhookReceiver } from "@lm/testing";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(240_000);

/** Events sent. */
const EVENTS = 200;
/** How long the receiver takes to answer, ms: long enough that two attempts at once would overlap. */
const ANSWER_MS = 25;

/** A seeded pseudo-random draw in [0, 1) (mulberry32), so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The receiver's answers, in the order requests arrive: about a third 500s, never more than 3 in a row, so no event
 * uses its 6 attempts (a `dead` event would have no success to check; that path is the retry policy's own test).
 */
function randomAnswers(count: number, draw: () => number): ScriptedAnswer[] {
  const answers: ScriptedAnswer[] = [];
  let failuresInARow = 0;
  for (let i = 0; i < count; i++) {
    const fail = failuresInARow < 3 && draw() < 0.33;
    failuresInARow = fail ? failuresInARow + 1 : 0;
    answers.push({ status: fail ? 500 : 200, delayMs: ANSWER_MS });
  }
  // Once the draw is used up, every answer is a success.
  answers.push({ status: 200, delayMs: ANSWER_MS });
  return answers;
}

describe("a FIFO endpoint (DESIGN §16)", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  test(`when ${EVENTS} events reach a FIFO endpoint that fails at random, then it sees one attempt at a time and each event's first success in the order of the events`, async () => {
    const seed = Date.now() % 1_000_000;
    const answers = randomAnswers(2 * EVENTS, seeded(seed));
    receiver.script("/fifo", answers);
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, {
      url: `${receiver.url}/fifo`,
      events: ["transaction.created"],
      ordering: "fifo",
    });
    expect(endpoint.ordering).toBe("fifo");
    const api = await ownerMerchantClient(ctx, owner, "test");

    const charges: string[] = [];
    for (let i = 0; i < EVENTS; i++)
      charges.push((await api.post("/v1/transactions", chargeBody()).expect(201)).body.id);

    await waitUntil(
      `every event's success (seed ${seed})`,
      async () =>
        (await ctx.db.webhookDelivery.count({ where: { endpoint_id: endpoint.id, status: "succeeded" } })) === EVENTS ||
        null,
      { timeoutMs: 200_000, intervalMs: 500 },
    );
    const requests = receiver.requestsTo("/fifo");
    const events = await ctx.db.event.findMany({
      where: { store_id: owner.storeId, type: "transaction.created" },
      orderBy: [{ created_at: "asc" }, { id: "asc" }],
    });
    expect(events.map((event) => (event.data as { id: string }).id)).toEqual(charges);

    // The n-th request got the n-th answer: the successes, in arrival order, are the events in order, each once.
    const succeeded = requests.filter((_, n) => answers[Math.min(n, answers.length - 1)]!.status === 200);
    const failures = requests.length - succeeded.length;
    expect({ seed, order: succeeded.map((request) => request.headers["x-event-id"]) }).toEqual({
      seed,
      order: events.map((event) => event.id),
    });
    expect(failures).toBeGreaterThan(EVENTS / 5);
    // One attempt at a time: each request arrived after the one before it was answered.
    const overlaps = requests.filter(
      (request, n) => n > 0 && request.receivedAt.getTime() - requests[n - 1]!.receivedAt.getTime() < ANSWER_MS - 2,
    );
    expect({ seed, overlaps: overlaps.length }).toEqual({ seed, overlaps: 0 });
    // A failing event was retried before any later event was tried: the attempts' events never go back in order.
    const position = new Map(events.map((event, i) => [event.id, i]));
    const tried = requests.map((request) => position.get(String(request.headers["x-event-id"]))!);
    expect(tried).toEqual([...tried].sort((a, b) => a - b));
  });
});
