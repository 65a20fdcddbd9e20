/**
 * Use case: record an event and fan it out (DESIGN §1 "Write, then enqueue", SPEC "Events"). Inside the caller's
 * database transaction it writes the event row and the first delivery row (attempt 1, `pending`, due now) of every
 * destination: the charge's `postback_url`, if any, and every enabled, not-deleted account endpoint of the same store
 * and mode subscribed to the type or to `*`. After commit the caller enqueues the deliveries with
 * {@link enqueueDeliveries}; the reconciler covers a crash in between.
 */
import type { Event, Prisma } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { newId } from "../ids";

/** What to record. */
export interface EventInput {
  scope: MerchantScope;
  /** e.g. `transaction.paid`. */
  type: string;
  /** `data.object`: the resource exactly as its read operation returns it now. */
  object: Record<string, unknown>;
  /** The charge whose `postback_url` also receives the event (SPEC: "only events of that charge"). */
  postback?: { transactionId: string; url: string | null };
  now: Date;
}

/** The stored event and the ids of the first delivery rows it fanned out to. */
export interface RecordedEvent {
  event: Event;
  deliveryIds: string[];
}

/**
 * Writes the event and its first delivery rows with `tx`; commit them together with the state change they describe.
 * @returns the event and the delivery ids to enqueue after commit
 */
export async function recordEvent(tx: Prisma.TransactionClient, input: EventInput): Promise<RecordedEvent> {
  const { scope, type, now } = input;
  const event = await tx.event.create({
    data: {
      id: newId("event", now.getTime()),
      store_id: scope.storeId,
      mode: scope.mode,
      type,
      data: input.object as Prisma.InputJsonObject,
      created_at: now,
    },
  });
  const endpoints = await tx.webhookEndpoint.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      enabled: true,
      deleted_at: null,
      OR: [{ events: { has: type } }, { events: { has: "*" } }],
    },
    select: { id: true, url: true },
    orderBy: { id: "asc" },
  });
  const first = (destination: Pick<Prisma.WebhookDeliveryCreateManyInput, "destination_type" | "url" | "endpoint_id" | "transaction_id">) => {
    const id = newId("delivery", now.getTime());
    return {
      id,
      chain_id: id,
      attempt: 1,
      status: "pending" as const,
      event_id: event.id,
      event_type: type,
      store_id: scope.storeId,
      scheduled_at: now,
      created_at: now,
      ...destination,
    };
  };
  const rows: Prisma.WebhookDeliveryCreateManyInput[] = [];
  if (input.postback?.url) {
    rows.push(first({ destination_type: "postback", url: input.postback.url, transaction_id: input.postback.transactionId }));
  }
  for (const endpoint of endpoints) {
    rows.push(first({ destination_type: "endpoint", url: endpoint.url, endpoint_id: endpoint.id }));
  }
  if (rows.length > 0) await tx.webhookDelivery.createMany({ data: rows });
  return { event, deliveryIds: rows.map((row) => row.id) };
}

/**
 * Enqueues `webhook-delivery` jobs for freshly committed delivery rows (`jobId` = delivery id, so a repeat is a
 * no-op). A Redis failure is logged, not thrown: the rows are committed and the reconciler enqueues them later.
 */
export async function enqueueDeliveries(deps: Pick<UseCaseDeps, "producer" | "logger">, deliveryIds: string[]): Promise<void> {
  try {
    await deps.producer.enqueueBulk(
      "webhook-delivery",
      deliveryIds.map((deliveryId) => ({ data: { deliveryId }, jobId: deliveryId })),
    );
  } catch (err) {
    deps.logger.warn("delivery enqueue failed; the reconciler will retry", { count: deliveryIds.length, err });
  }
}
