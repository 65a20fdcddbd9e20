/**
 * Money out (DESIGN §7, §15): the balance of the current mode, the seller's payout keys (adding or removing one needs
 * a step-up) and withdrawals (step-up always, `Idempotency-Key` per dialog).
 */
import { useState } from "react";
import { del, newIdempotencyKey, post } from "../api/client";
import { useApiAction, useApiQuery } from "../api/hooks";
import type { Balance, ListPage, PayoutKey, Withdrawal } from "../api/types";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { Pager, usePagedList } from "../components/paged-list";
import { StatusBadge } from "../components/status-badge";
import { parseMoney } from "../i18n/format";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** Payout key types, as the API names them. */
const KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;

/** The dialog adding a payout key. */
function NewPayoutKey({ onClose }: { onClose: () => void }) {
  const { t, label } = useI18n();
  const [type, setType] = useState<(typeof KEY_TYPES)[number]>("cpf");
  const [key, setKey] = useState("");
  const create = useApiAction(
    () => post<PayoutKey>("/v1/me/payout-keys", { type, key }),
    ["/v1/me/payout-keys"],
    onClose,
  );
  return (
    <Dialog title={t("payouts.newKey")} onClose={onClose}>
      <form onSubmit={submitted(() => create.mutate(undefined))}>
        <label>
          {t("payouts.keyType")}
          <select value={type} onChange={(event) => setType(event.target.value as (typeof KEY_TYPES)[number])}>
            {KEY_TYPES.map((value) => (
              <option key={value} value={value}>
                {label(`keyType.${value}`, value)}
              </option>
            ))}
          </select>
        </label>
        <Field
          label={t("payouts.key")}
          required
          hint={t("payouts.keyHint")}
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <ErrorMessage error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {t("payouts.addKey")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The dialog requesting a withdrawal to one of `keys`. */
function NewWithdrawal({ keys, onClose }: { keys: PayoutKey[]; onClose: () => void }) {
  const { t, label } = useI18n();
  const { mode } = useMode();
  const [amount, setAmount] = useState("");
  const [payoutKeyId, setPayoutKeyId] = useState(keys[0]?.id ?? "");
  const [idempotencyKey] = useState(newIdempotencyKey);
  const withdraw = useApiAction(
    (cents: number) =>
      post<Withdrawal>("/v1/me/withdrawals", { amount: cents, payout_key_id: payoutKeyId, mode }, { idempotencyKey }),
    ["/v1/me/withdrawals", "/v1/me/balance"],
    onClose,
  );
  const cents = parseMoney(amount);
  return (
    <Dialog title={t("payouts.newWithdrawal")} onClose={onClose}>
      <form
        onSubmit={submitted(() => {
          if (cents !== null) withdraw.mutate(cents);
        })}
      >
        <Field
          label={t("common.amountReais")}
          inputMode="decimal"
          required
          value={amount}
          aria-invalid={amount !== "" && cents === null}
          hint={amount !== "" && cents === null ? t("common.invalidAmount") : t("common.amountHint")}
          onChange={(event) => setAmount(event.target.value)}
        />
        <label>
          {t("payouts.key")}
          <select value={payoutKeyId} onChange={(event) => setPayoutKeyId(event.target.value)} required>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {label(`keyType.${key.type}`, key.type)} · {key.key_masked}
              </option>
            ))}
          </select>
        </label>
        <ErrorMessage error={withdraw.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={withdraw.isPending || cents === null}>
            {t("payouts.withdraw")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The payouts page. */
export function PayoutsPage() {
  const { t, money, dateTime, label } = useI18n();
  const { mode } = useMode();
  const [dialog, setDialog] = useState<"key" | "withdrawal" | null>(null);
  const balance = useApiQuery<Balance>("/v1/me/balance", { mode });
  const keys = useApiQuery<ListPage<PayoutKey>>("/v1/me/payout-keys", { limit: 100 });
  const withdrawals = usePagedList<Withdrawal>("/v1/me/withdrawals", { mode }, { refetchInterval: 3_000 });
  const removeKey = useApiAction((id: string) => del(`/v1/me/payout-keys/${id}`), ["/v1/me/payout-keys"]);
  const keyList = keys.data?.data ?? [];
  return (
    <>
      <PageTitle
        title={t("payouts.title")}
        actions={
          <button
            type="button"
            className="primary"
            onClick={() => setDialog("withdrawal")}
            disabled={keyList.length === 0}
          >
            {t("payouts.newWithdrawal")}
          </button>
        }
      />
      <section className="tiles" aria-label={t("balance.title")}>
        <ErrorMessage error={balance.error} />
        <div className="tile">
          <span>{t("balance.available")}</span>
          <strong data-testid="balance-available">{balance.data ? money(balance.data.available) : "…"}</strong>
        </div>
        <div className="tile">
          <span>{t("balance.reserved")}</span>
          <strong>{balance.data ? money(balance.data.reserved) : "…"}</strong>
        </div>
      </section>
      <section aria-labelledby="payout-keys">
        <div className="section-title">
          <h2 id="payout-keys">{t("payouts.keys")}</h2>
          <button type="button" onClick={() => setDialog("key")}>
            {t("payouts.newKey")}
          </button>
        </div>
        <ErrorMessage error={keys.error ?? removeKey.error} />
        {keys.data !== undefined && keyList.length === 0 ? <p>{t("payouts.noKeys")}</p> : null}
        <ul className="plain">
          {keyList.map((key) => (
            <li key={key.id}>
              {label(`keyType.${key.type}`, key.type)} · <code>{key.key_masked}</code> · {dateTime(key.created_at)}{" "}
              <button
                type="button"
                className="link-button"
                onClick={() => removeKey.mutate(key.id)}
                aria-label={t("payouts.removeKey", { key: key.key_masked })}
              >
                {t("common.delete")}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="withdrawals">
        <h2 id="withdrawals">{t("payouts.withdrawals")}</h2>
        <ErrorMessage error={withdrawals.query.error} />
        {withdrawals.query.data?.data.length === 0 ? <p>{t("payouts.noWithdrawals")}</p> : null}
        <table>
          <caption className="visually-hidden">{t("payouts.withdrawals")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("common.created")}</th>
              <th scope="col">{t("common.amount")}</th>
              <th scope="col">{t("payouts.key")}</th>
              <th scope="col">{t("common.status")}</th>
            </tr>
          </thead>
          <tbody>
            {withdrawals.items.map((withdrawal) => (
              <tr key={withdrawal.id}>
                <td>{dateTime(withdrawal.created_at)}</td>
                <td className="number">{money(withdrawal.amount)}</td>
                <td>{withdrawal.payout_key.key_masked}</td>
                <td>
                  <StatusBadge status={withdrawal.status} />
                  {withdrawal.failure_reason === null ? null : <small> {withdrawal.failure_reason}</small>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager newer={withdrawals.newer} older={withdrawals.older} />
      </section>
      {dialog === "key" ? <NewPayoutKey onClose={() => setDialog(null)} /> : null}
      {dialog === "withdrawal" ? <NewWithdrawal keys={keyList} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
