import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import {
  createEndpointRow,
  startRedisCluster,
  startWebhookReceiver,
  type OwnRedisCluster,
  type WebhookReceiver,
} from "@lm/testing";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(60_000);

describe("the service on a Redis Cluster (REDIS_CLUSTER_NODES)", () => {
  // Filled in before the harness reads it: the cluster's nodes and a hash-tagged prefix of this file's own.
  const env: Record<string, string> = {};
  let cluster: OwnRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    env.REDIS_CLUSTER_NODES = cluster.nodes.join(",");
    env.QUEUE_PREFIX = `{t${randomBytes(5).toString("hex")}}`;
  });
  const ctx = useE2eTestContext(env);
  const merchant = useTestMerchant(ctx);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  test("when a charge is created and paid, then its webhooks are delivered and every queue key lives on one node", async () => {
    await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.url}/endpoint`,
      events: ["transaction.created", "transaction.paid"],
    });

    const charge = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    await merchant.client.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);

    await receiver.waitForRequests(2, { path: "/endpoint", timeoutMs: 30_000 });
    expect(receiver.requestsTo("/endpoint").map((request) => request.headers["x-event-type"])).toEqual(
      expect.arrayContaining(["transaction.created", "transaction.paid"]),
    );
    expect((await merchant.client.get(`/v1/transactions/${charge.id}`).expect(200)).body.status).toBe("paid");
    const holders = await Promise.all(
      cluster.nodes.map(async (node) => {
        const redis = new Redis(node);
        try {
          return (await redis.keys(`${env.QUEUE_PREFIX}:*`)).length;
        } finally {
          redis.disconnect();
        }
      }),
    );
    expect(holders.filter((count) => count > 0)).toHaveLength(1);
  });
});
