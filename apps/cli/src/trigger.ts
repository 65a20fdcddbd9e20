/**
 * `lm trigger <event type>` (DESIGN §12): makes the service emit one event in test mode by doing, through the public
 * merchant API, what a real integration would: create a charge, have the sandbox pay it, refund it, withdraw the
 * balance, and so on. It waits for the object to reach the state the event announces, so that when it returns the
 * event exists (and `lm listen` forwards it within a second).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type ApiCall, idempotencyKey, type MerchantApi, replyOf } from "./merchant-api";

/** The event types `lm trigger` can cause, with what it does for each. */
export const TRIGGERS = {
  "transaction.paid":
    "creates a charge and has the sandbox pay it; with --late-days <n>, a due-date charge due today (2 % fine, " +
    "1 % a month of interest) paid n days late",
  "transaction.expired": "creates a charge and brings its deadline to now",
  "transaction.canceled": "creates a charge and cancels it",
  "refund.succeeded": "creates a charge, has it paid, and refunds it in full",
  "withdrawal.completed": "creates a charge, has it paid, and withdraws its amount to the seller's own CPF/CNPJ key",
  "dispute.created": "creates a charge, has it paid, and has the payer's bank open a MED dispute for it",
  "recurrence.approved": "creates a Pix Automático recurrence and has the payer's bank (the sandbox) approve it",
  "transaction.failed":
    "creates a test clock and a recurrence on it whose amount ends in 13, approves it, and advances the clock past " +
    "its first due date, whose debit the sandbox refuses",
} as const;

/** An event type `lm trigger` can cause. */
export type TriggerableEvent = keyof typeof TRIGGERS;

/** True when `type` is one of {@link TRIGGERS}. */
export function isTriggerable(type: string): type is TriggerableEvent {
  return Object.hasOwn(TRIGGERS, type);
}

/** Centavos of every charge a trigger creates. */
const AMOUNT = 1500;
/** How long a trigger waits for the worker to settle what it asked, ms. */
const SETTLE_TIMEOUT_MS = 30_000;

/** What a trigger prints of each object it creates or reads. */
interface Resource {
  id: string;
  status: string;
}

/** A payer for due-date charges, which need one (the standard's `devedor`): a valid test CPF. */
const PAYER = { name: "Pagador de Teste", document: "529.982.247-25" };

/** The calendar date (`YYYY-MM-DD`) in São Paulo, `days` from now (Brazil keeps no daylight-saving time). */
function saoPauloDate(days = 0): string {
  return new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Causes one `type` event in the key's test-mode store, printing each request as it goes.
 * @param print - receives each line of the log (no trailing newline)
 * @param options.lateDays - for `transaction.paid`: make it a due-date charge due today, paid this many days late
 *   (1 to 30, its window), so that the event shows a fine, interest and `payment.components`
 * @throws ApiRequestError when the API refuses a step (its code and message say why); ApiUnreachableError when it
 *   does not answer; Error when the worker does not settle a step within 30 s (is the worker running?)
 */
export async function trigger(
  api: MerchantApi,
  type: TriggerableEvent,
  print: (line: string) => void,
  options: { lateDays?: number } = {},
): Promise<void> {
  const post = async <T extends Resource>(call: ApiCall<T>): Promise<T> => {
    const { body: created, path } = await replyOf(call);
    print(`POST ${path} -> ${created.id} (${created.status})`);
    return created;
  };
  const settled = async <T extends Resource>(read: () => ApiCall<T>, status: T["status"]): Promise<void> => {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const { body, path } = await replyOf(read());
      if (body.status === status) return print(`GET ${path} -> ${body.status}`);
      if (Date.now() > deadline) {
        throw new Error(`${path} is still ${body.status} after 30 s, not ${status}: is the worker running?`);
      }
      await sleep(100);
    }
  };
  const charge = () =>
    post(
      api.POST("/v1/transactions", {
        params: { header: idempotencyKey() },
        body: { amount: AMOUNT, description: `lm trigger ${type}` },
      }),
    );
  const paidCharge = async () => {
    const created = await charge();
    const path = { id: created.id };
    await post(api.POST("/v1/transactions/{id}/simulate-payment", { params: { path } }));
    await settled(() => api.GET("/v1/transactions/{id}", { params: { path } }), "paid");
    return created;
  };

  const latePaidCharge = async (lateDays: number) => {
    const created = await post(
      api.POST("/v1/transactions", {
        params: { header: idempotencyKey() },
        body: {
          amount: AMOUNT,
          description: `lm trigger ${type} --late-days ${lateDays}`,
          customer: PAYER,
          due_date: saoPauloDate(),
          fine: { type: "percent", value: "2.00" },
          interest: { type: "percent_per_month", days: "calendar", value: "1.00" },
        },
      }),
    );
    const path = { id: created.id };
    await post(
      api.POST("/v1/transactions/{id}/simulate-payment", { params: { path }, body: { date: saoPauloDate(lateDays) } }),
    );
    await settled(() => api.GET("/v1/transactions/{id}", { params: { path } }), "paid");
  };

  /** A recurrence of `amount` centavos starting on `startDate`, approved by the sandbox. */
  const approvedRecurrence = async (amount: number, startDate: string, testClock?: string) => {
    const created = await post(
      api.POST("/v1/recurrences", {
        params: { header: idempotencyKey() },
        body: {
          contract: `lm-trigger-${Date.now()}`,
          description: `lm trigger ${type}`,
          customer: PAYER,
          start_date: startDate,
          interval: "monthly",
          amount,
          journey: "qr",
          ...(testClock === undefined ? {} : { test_clock: testClock }),
        },
      }),
    );
    const path = { id: created.id };
    await post(api.POST("/v1/recurrences/{id}/simulate-approval", { params: { path }, body: { approve: true } }));
    return created;
  };

  switch (type) {
    case "recurrence.approved":
      await approvedRecurrence(AMOUNT, saoPauloDate(20));
      break;
    case "transaction.failed": {
      const clock = await post(api.POST("/v1/test-clocks", { body: { frozen_time: new Date().toISOString() } }));
      const due = saoPauloDate(3);
      await approvedRecurrence(1013, due, clock.id);
      const path = { id: clock.id };
      // The evening of the due date in São Paulo: past its debit at noon.
      const to = `${due}T20:00:00.000-03:00`;
      await post(api.POST("/v1/test-clocks/{id}/advance", { params: { path }, body: { frozen_time: to } }));
      await settled(() => api.GET("/v1/test-clocks/{id}", { params: { path } }), "ready");
      break;
    }
    case "transaction.paid":
      await (options.lateDays === undefined ? paidCharge() : latePaidCharge(options.lateDays));
      break;
    case "transaction.expired": {
      const { id } = await charge();
      await post(api.POST("/v1/transactions/{id}/simulate-expiration", { params: { path: { id } } }));
      break;
    }
    case "transaction.canceled": {
      const { id } = await charge();
      await post(api.POST("/v1/transactions/{id}/cancel", { params: { path: { id }, header: idempotencyKey() } }));
      break;
    }
    case "refund.succeeded": {
      const paid = await paidCharge();
      const refund = await post(
        api.POST("/v1/transactions/{id}/refunds", {
          params: { path: { id: paid.id }, header: idempotencyKey() },
          body: { reason: "lm trigger refund.succeeded" },
        }),
      );
      await settled(() => api.GET("/v1/refunds/{id}", { params: { path: { id: refund.id } } }), "succeeded");
      break;
    }
    case "withdrawal.completed": {
      await paidCharge();
      const withdrawal = await post(
        api.POST("/v1/withdrawals", { params: { header: idempotencyKey() }, body: { amount: AMOUNT } }),
      );
      await settled(() => api.GET("/v1/withdrawals/{id}", { params: { path: { id: withdrawal.id } } }), "completed");
      break;
    }
    case "dispute.created": {
      const paid = await paidCharge();
      await post(api.POST("/v1/transactions/{id}/simulate-dispute", { params: { path: { id: paid.id } } }));
      break;
    }
  }
  print(`Trigger succeeded: ${type} is on its way to your webhook endpoints and listeners.`);
}
