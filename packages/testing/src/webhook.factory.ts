/**
 * Row factories for delivery tests and benchmarks (STYLE example 5): a store with its postback secret, account
 * endpoints with their secrets, events, charges and first delivery rows, written straight to the database the way
 * the API's fan-out writes them. Each returns the row and any plaintext secret a test needs to verify signatures.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Db, Event, Prisma, Store, Transaction as TransactionRow, WebhookDelivery, WebhookEndpoint } from "@lm/db";
import type { Transaction } from "@lm/wire";
import {
  documentLookupHash,
  encryptDocument,
  encryptSecret,
  generateWebhookSecret,
  maskTaxDocument,
  newId,
} from "@lm/domain";

/** A seller and its store; `postbackSecret` is null when the store has none configured. */
export async function createStoreRow(
  db: Db,
  encryptionKey: Buffer,
  options: { postbackSecret?: string | null } = {},
): Promise<{ store: Store; postbackSecret: string | null }> {
  const postbackSecret = options.postbackSecret === undefined ? generateWebhookSecret() : options.postbackSecret;
  const sellerId = newId("seller");
  const storeId = newId("store");
  const digits = String(randomInt(1e10, 1e11)).padStart(11, "0");
  await db.seller.create({
    data: {
      id: sellerId,
      legal_name: "Loja Teste",
      document: encryptDocument(encryptionKey, digits, sellerId),
      document_hash: documentLookupHash(encryptionKey, digits),
      document_masked: maskTaxDocument(digits),
    },
  });
  const store = await db.store.create({
    data: {
      id: storeId,
      seller_id: sellerId,
      name: "Loja Teste",
      postback_secret_ciphertext:
        postbackSecret === null ? null : encryptSecret(encryptionKey, postbackSecret, storeId),
      postback_secret_prefix: postbackSecret === null ? null : postbackSecret.slice(6, 12),
    },
  });
  return { store, postbackSecret };
}

/** An account endpoint of `storeId` and its current (and, if given, previous) secret. */
export async function createEndpointRow(
  db: Db,
  encryptionKey: Buffer,
  input: {
    storeId: string;
    url: string;
    mode?: "live" | "test";
    events?: string[];
    enabled?: boolean;
    deletedAt?: Date | null;
    previousSecret?: string;
    previousSecretExpiresAt?: Date;
    consecutiveDeadChains?: number;
    lastSucceededAt?: Date | null;
    /** Delivery controls (DESIGN §16); none by default. */
    ordering?: "none" | "fifo";
    rateLimit?: number | null;
    paused?: boolean;
  },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const id = newId("webhookEndpoint");
  const secret = generateWebhookSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: {
      id,
      store_id: input.storeId,
      mode: input.mode ?? "test",
      url: input.url,
      events: input.events ?? ["*"],
      secret_ciphertext: encryptSecret(encryptionKey, secret, id),
      secret_prefix: secret.slice(6, 12),
      previous_secret_ciphertext:
        input.previousSecret === undefined ? null : encryptSecret(encryptionKey, input.previousSecret, id),
      previous_secret_expires_at: input.previousSecretExpiresAt ?? null,
      enabled: input.enabled ?? true,
      disabled_reason: input.enabled === false ? "manual" : null,
      deleted_at: input.deletedAt ?? null,
      consecutive_dead_chains: input.consecutiveDeadChains ?? 0,
      last_succeeded_at: input.lastSucceededAt ?? null,
      ordering: input.ordering ?? "none",
      rate_limit: input.rateLimit ?? null,
      paused: input.paused ?? false,
    },
  });
  return { endpoint, secret };
}

/** A pending charge of `storeId` with `postbackUrl`, just enough for a postback destination. */
export async function createTransactionRow(
  db: Db,
  input: { storeId: string; mode?: "live" | "test"; postbackUrl: string | null },
): Promise<TransactionRow> {
  const id = newId("transaction");
  return db.transaction.create({
    data: {
      id,
      store_id: input.storeId,
      mode: input.mode ?? "test",
      amount: 1990,
      txid: randomBytes(16).toString("hex"),
      br_code: "000201",
      qr_code_png_base64: "",
      postback_url: input.postbackUrl,
      expires_in: 86400,
      expires_at: new Date(Date.now() + 86_400_000),
    },
  });
}

/**
 * A paid charge of R$ 19,90 as the wire shows it (`@lm/wire`'s `Transaction`, so it follows the document), for events
 * whose charge has no row: its id is fresh and its QR image a stub.
 */
export function paidTransactionObject(mode: "live" | "test" = "test"): Transaction {
  const at = new Date().toISOString();
  const txid = randomBytes(16).toString("hex").slice(0, 26);
  return {
    id: newId("transaction"),
    object: "transaction",
    status: "paid",
    mode,
    type: "immediate",
    amount: 1990,
    amount_refunded: 0,
    amount_disputed: 0,
    currency: "BRL",
    description: null,
    external_id: null,
    txid,
    pix: { copy_paste: `00020101021226${txid}6304ABCD`, qr_code_png_base64: "iVBORw0KGgo=" },
    customer: null,
    postback_url: null,
    metadata: {},
    expires_in: 86_400,
    expires_at: at,
    paid_at: at,
    expired_at: null,
    canceled_at: null,
    failure_reason: null,
    due_date: null,
    amount_due: null,
    qr_code_id: null,
    recurrence_id: null,
    payment: {
      end_to_end_id: `E${txid}`,
      amount: 1990,
      payer: { name: null, document_masked: null },
      components: null,
    },
    created_at: at,
    updated_at: at,
  };
}

/** An event of `storeId`, by default a `transaction.paid` of {@link paidTransactionObject}. */
export async function createEventRow(
  db: Db,
  input: { storeId: string; mode?: "live" | "test"; type?: string; object?: Prisma.InputJsonObject },
): Promise<Event> {
  const mode = input.mode ?? "test";
  return db.event.create({
    data: {
      id: newId("event"),
      store_id: input.storeId,
      mode,
      type: input.type ?? "transaction.paid",
      data: input.object ?? paidTransactionObject(mode),
    },
  });
}

/**
 * The first delivery row (attempt 1, `pending`, due `scheduledAt` or now) of `event` to an account endpoint or to a
 * charge's postback URL, as the fan-out writes it.
 */
export async function createDeliveryRow(
  db: Db,
  input: {
    event: Event;
    destination: { endpoint: WebhookEndpoint } | { transaction: TransactionRow };
    scheduledAt?: Date;
  },
): Promise<WebhookDelivery> {
  const id = newId("delivery");
  let destination: Pick<WebhookDelivery, "destination_type" | "endpoint_id" | "transaction_id" | "url">;
  if ("endpoint" in input.destination) {
    const { endpoint } = input.destination;
    destination = { destination_type: "endpoint", endpoint_id: endpoint.id, transaction_id: null, url: endpoint.url };
  } else {
    const { transaction } = input.destination;
    if (transaction.postback_url === null) throw new Error("a postback delivery needs a charge with a postback_url");
    destination = {
      destination_type: "postback",
      endpoint_id: null,
      transaction_id: transaction.id,
      url: transaction.postback_url,
    };
  }
  return db.webhookDelivery.create({
    data: {
      id,
      chain_id: id,
      attempt: 1,
      status: "pending",
      event_id: input.event.id,
      event_type: input.event.type,
      store_id: input.event.store_id,
      scheduled_at: input.scheduledAt ?? new Date(),
      ...destination,
    },
  });
}
