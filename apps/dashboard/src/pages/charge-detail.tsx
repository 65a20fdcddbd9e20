/**
 * One charge (DESIGN §15): its fields and Pix code; in test mode, paying it (`simulate-payment`, through the same
 * inbound path as a bank's notification); its refunds, and a refund (step-up always, `Idempotency-Key`); the events
 * it raised and every delivery of them, to endpoints and to its `postback_url`.
 */
import { useMemo, useState } from "react";
import { useParams } from "react-router";
import { newIdempotencyKey, post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { ListPage, Refund, Transaction, WebhookDelivery } from "../api/types";
import { DeliveriesTable } from "../components/deliveries-table";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { StatusBadge } from "../components/status-badge";
import { parseMoney } from "../i18n/format";
import { useI18n } from "../i18n/i18n";

/** How often the page reads the charge and its deliveries again while it is open, ms. */
const REFRESH_MS = 2_000;

/** The refund dialog: the amount (the remainder when empty) and a reason. */
function RefundDialog({ charge, onClose }: { charge: Transaction; onClose: () => void }) {
  const { t, money } = useI18n();
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  // One key per dialog: a retry after an error (or after the step-up) is the same refund.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const remainder = charge.amount - charge.amount_refunded - charge.amount_disputed;
  const refund = useApiAction(
    (input: { amount: number | undefined; reason: string }) =>
      post<Refund>(
        `/v1/me/transactions/${charge.id}/refunds`,
        {
          ...(input.amount === undefined ? {} : { amount: input.amount }),
          ...(input.reason === "" ? {} : { reason: input.reason }),
        },
        { idempotencyKey },
      ),
    ["/v1/me/transactions", "/v1/me/balance"],
    onClose,
  );
  const cents = amount.trim() === "" ? undefined : parseMoney(amount);
  return (
    <Dialog title={t("refunds.new")} onClose={onClose}>
      <form
        onSubmit={submitted(() => {
          if (cents !== null) refund.mutate({ amount: cents, reason });
        })}
      >
        <Field
          label={t("common.amountReais")}
          inputMode="decimal"
          value={amount}
          aria-invalid={cents === null}
          hint={cents === null ? t("common.invalidAmount") : t("refunds.remainder", { amount: money(remainder) })}
          onChange={(event) => setAmount(event.target.value)}
        />
        <Field
          label={t("refunds.reason")}
          maxLength={140}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <ErrorMessage error={refund.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={refund.isPending || cents === null}>
            {t("refunds.submit")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The charge's fields as a definition list. */
function ChargeFields({ charge }: { charge: Transaction }) {
  const { t, money, dateTime } = useI18n();
  const rows: [string, string][] = [
    [t("common.id"), charge.id],
    [t("common.mode"), t(charge.mode === "live" ? "mode.live" : "mode.test")],
    [t("common.description"), charge.description ?? "—"],
    [t("charges.externalId"), charge.external_id ?? "—"],
    [t("common.created"), dateTime(charge.created_at)],
    [t("charges.expiresAt"), dateTime(charge.expires_at)],
    [t("charges.paidAt"), dateTime(charge.paid_at)],
    [t("charges.refunded"), money(charge.amount_refunded)],
    [
      t("charges.customer"),
      charge.customer === null ? "—" : `${charge.customer.name} (${charge.customer.document_masked})`,
    ],
    [t("charges.endToEndId"), charge.payment?.end_to_end_id ?? "—"],
    ["txid", charge.txid],
  ];
  return (
    <dl className="fields">
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The events the charge's deliveries carried, once each, oldest first. */
function eventsOf(deliveries: WebhookDelivery[]): { id: string; type: string }[] {
  const seen = new Map<string, string>();
  for (const delivery of [...deliveries].reverse()) seen.set(delivery.event_id, delivery.event_type);
  return [...seen].map(([id, type]) => ({ id, type }));
}

/** The charge page. */
export function ChargeDetailPage() {
  const { t, money, dateTime } = useI18n();
  const { id = "" } = useParams();
  const [refunding, setRefunding] = useState(false);
  const charge = useApiQuery<Transaction>(`/v1/me/transactions/${id}`, {}, { refetchInterval: REFRESH_MS });
  const mode = charge.data?.mode;
  const refunds = useApiQuery<ListPage<Refund>>(
    `/v1/me/transactions/${id}/refunds`,
    {},
    { enabled: mode !== undefined },
  );
  const deliveries = useApiQuery<ListPage<WebhookDelivery>>(
    "/v1/me/webhook-deliveries",
    { mode, transaction_id: id, limit: 100 },
    { enabled: mode !== undefined, refetchInterval: REFRESH_MS },
  );
  const pay = useApiAction(
    () => post<Transaction>(`/v1/me/transactions/${id}/simulate-payment`),
    ["/v1/me/transactions"],
  );
  const events = useMemo(() => eventsOf(deliveries.data?.data ?? []), [deliveries.data]);

  if (charge.error !== null) return <ErrorMessage error={charge.error} />;
  if (charge.data === undefined) return <p role="status">{t("common.loading")}</p>;
  const data = charge.data;
  const refundable = data.amount - data.amount_refunded - data.amount_disputed > 0;
  return (
    <>
      <PageTitle
        title={t("charges.detailTitle", { amount: money(data.amount) })}
        actions={
          <>
            {data.mode === "test" && data.status === "pending" ? (
              <button type="button" className="primary" onClick={() => pay.mutate(undefined)} disabled={pay.isPending}>
                {t("charges.simulatePayment")}
              </button>
            ) : null}
            {(data.status === "paid" || data.status === "refunded") && refundable ? (
              <button type="button" onClick={() => setRefunding(true)}>
                {t("refunds.new")}
              </button>
            ) : null}
          </>
        }
      />
      <p>
        <StatusBadge status={data.status} />
      </p>
      <ErrorMessage error={pay.error} />
      {pay.isSuccess && data.status === "pending" ? <p role="status">{t("charges.paymentSent")}</p> : null}
      <ChargeFields charge={data} />
      {data.status === "pending" ? (
        <section aria-labelledby="pix">
          <h2 id="pix">Pix</h2>
          <img
            className="qr"
            src={`data:image/png;base64,${data.pix.qr_code_png_base64}`}
            alt={t("charges.qrAlt")}
            width={200}
            height={200}
          />
          <p className="break">
            <code>{data.pix.copy_paste}</code>
          </p>
        </section>
      ) : null}
      <section aria-labelledby="refunds">
        <h2 id="refunds">{t("refunds.title")}</h2>
        <ErrorMessage error={refunds.error} />
        {refunds.data?.data.length === 0 ? <p>{t("refunds.none")}</p> : null}
        <ul className="plain">
          {refunds.data?.data.map((refund) => (
            <li key={refund.id}>
              {money(refund.amount)} · <StatusBadge status={refund.status} /> · {dateTime(refund.created_at)}
              {refund.reason === null ? null : ` · ${refund.reason}`}
              {refund.failure_reason === null ? null : ` · ${refund.failure_reason}`}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="events">
        <h2 id="events">{t("events.title")}</h2>
        {events.length === 0 ? <p>{t("charges.noEvents")}</p> : null}
        <ul className="plain">
          {events.map((event) => (
            <li key={event.id}>
              <code>{event.type}</code> · <code>{event.id}</code>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">{t("deliveries.title")}</h2>
        <ErrorMessage error={deliveries.error} />
        <DeliveriesTable deliveries={deliveries.data?.data ?? []} showDestination />
      </section>
      {refunding ? <RefundDialog charge={data} onClose={() => setRefunding(false)} /> : null}
    </>
  );
}
