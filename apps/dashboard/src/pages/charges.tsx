/**
 * Charges (DESIGN §15): the current mode's charges filtered by status and `external_id`, and in test mode a test
 * charge created here (`POST /v1/me/transactions`), which opens its page where it can be paid.
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { post } from "../api/client";
import { useApiAction } from "../api/hooks";
import type { Transaction } from "../api/types";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/error-message";
import { Field, submitted } from "../components/forms";
import { PageTitle } from "../components/page-title";
import { Pager, usePagedList } from "../components/paged-list";
import { StatusBadge } from "../components/status-badge";
import { parseMoney } from "../i18n/format";
import { useI18n } from "../i18n/i18n";
import { useMode } from "../mode";

/** Statuses the list filters by. */
const STATUSES = ["pending", "paid", "expired", "canceled", "refunded"] as const;

/** The dialog creating a test charge. */
function NewTestCharge({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [invalid, setInvalid] = useState(false);
  const create = useApiAction(
    (input: { amount: number; description: string }) =>
      post<Transaction>("/v1/me/transactions", {
        mode: "test",
        amount: input.amount,
        ...(input.description === "" ? {} : { description: input.description }),
      }),
    ["/v1/me/transactions"],
    (charge) => void navigate(`/charges/${charge.id}`),
  );
  return (
    <Dialog title={t("charges.newTest")} onClose={onClose}>
      <form
        onSubmit={submitted(() => {
          const cents = parseMoney(amount);
          setInvalid(cents === null || cents < 1);
          if (cents !== null && cents >= 1) create.mutate({ amount: cents, description });
        })}
      >
        <Field
          label={t("common.amountReais")}
          inputMode="decimal"
          required
          value={amount}
          aria-invalid={invalid}
          hint={invalid ? t("common.invalidAmount") : t("common.amountHint")}
          onChange={(event) => setAmount(event.target.value)}
        />
        <Field
          label={t("common.description")}
          maxLength={140}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <ErrorMessage error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {t("charges.create")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The charges page. */
export function ChargesPage() {
  const { t, label, money, dateTime } = useI18n();
  const { mode } = useMode();
  const [status, setStatus] = useState("");
  const [externalId, setExternalId] = useState("");
  const [creating, setCreating] = useState(false);
  const list = usePagedList<Transaction>("/v1/me/transactions", {
    mode,
    status: status === "" ? undefined : status,
    external_id: externalId.trim() === "" ? undefined : externalId.trim(),
  });
  return (
    <>
      <PageTitle
        title={t("charges.title")}
        actions={
          mode === "test" ? (
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              {t("charges.newTest")}
            </button>
          ) : null
        }
      />
      {mode === "live" ? <p className="hint">{t("charges.liveHint")}</p> : null}
      <form className="filters" role="search" onSubmit={submitted(() => undefined)}>
        <label>
          {t("common.status")}
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">{t("common.all")}</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {label(`status.${value}`, value)}
              </option>
            ))}
          </select>
        </label>
        <Field
          label={t("charges.externalId")}
          value={externalId}
          onChange={(event) => setExternalId(event.target.value)}
        />
      </form>
      <ErrorMessage error={list.query.error} />
      {list.query.data?.data.length === 0 ? <p>{t("charges.none")}</p> : null}
      <table>
        <caption className="visually-hidden">{t("charges.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("common.created")}</th>
            <th scope="col">{t("common.id")}</th>
            <th scope="col">{t("common.description")}</th>
            <th scope="col">{t("common.amount")}</th>
            <th scope="col">{t("common.status")}</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((charge) => (
            <tr key={charge.id}>
              <td>{dateTime(charge.created_at)}</td>
              <td>
                <Link to={`/charges/${charge.id}`}>
                  <code>{charge.id}</code>
                </Link>
              </td>
              <td>{charge.description ?? "—"}</td>
              <td className="number">{money(charge.amount)}</td>
              <td>
                <StatusBadge status={charge.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager newer={list.newer} older={list.older} />
      {creating ? <NewTestCharge onClose={() => setCreating(false)} /> : null}
    </>
  );
}
