/**
 * Due-date charges (DESIGN §13, the standard's `cobv`) as the charge's life sees them: the terms a creation request
 * gives, checked and completed into what the charge keeps (`due_terms`), when such a charge expires, what its payer
 * owes on a day, and its wire object with today's amount due. The arithmetic itself is `../due-dates`.
 */
import type { Repositories, Transaction } from "@lm/db";
import { isExpiredAt, serializeTransaction, type DueDate, type Transaction as TransactionWire } from "@lm/wire";
import type { MerchantScope } from "../deps";
import { ApiError } from "../errors";
import { findTransaction } from "./find-transactions";
import {
  amountDue,
  assertPayableOn,
  DEFAULT_DAYS_AFTER_DUE,
  endOfSaoPauloDay,
  lastPayableDate,
  saoPauloDate,
  validateDueDateTerms,
  type AmountDue,
  type Discount,
  type DueDateTerms,
  type Fine,
  type Interest,
  type Reduction,
} from "../due-dates";

/** The due-date fields of a creation request (DESIGN §13), as the API's schema passes them. */
export interface DueDateInput {
  /** `YYYY-MM-DD`, today or later in São Paulo. */
  due_date: string;
  /** 0 to 365; default 30. */
  days_after_due?: number;
  fine?: Fine;
  interest?: Interest;
  reduction?: Reduction;
  discount?: Discount;
}

/** The names of {@link DueDateInput}'s fields, which only a due-date charge takes. */
export const DUE_DATE_FIELDS = ["due_date", "days_after_due", "fine", "interest", "reduction", "discount"] as const;

/**
 * Checks `input` for a charge of `amount` centavos created at `now` and completes it into the terms the charge keeps.
 * @returns `terms`, as the object's `due_date` shows them (with `last_payable_date`); `moneyTerms`, the same as the
 *   money math and the acquirer read them; and `expiresAt`, the start of the São Paulo day after the last payable date
 * @throws ApiError `validation_failed` naming the field when the standard would refuse the terms (a due date before
 *   today, a tier after the due date, a percentage out of range...)
 */
export function planDueDateTerms(
  amount: number,
  input: DueDateInput,
  now: Date,
): { terms: DueDate; moneyTerms: DueDateTerms; expiresAt: Date } {
  const terms: DueDateTerms = {
    original: amount,
    due_date: input.due_date,
    days_after_due: input.days_after_due ?? DEFAULT_DAYS_AFTER_DUE,
    fine: input.fine ?? null,
    interest: input.interest ?? null,
    reduction: input.reduction ?? null,
    discount: input.discount ?? null,
  };
  validateDueDateTerms(terms, { today: saoPauloDate(now) });
  const last = lastPayableDate(terms);
  return {
    terms: {
      date: input.due_date,
      days_after_due: terms.days_after_due ?? DEFAULT_DAYS_AFTER_DUE,
      fine: terms.fine ?? null,
      interest: terms.interest ?? null,
      reduction: terms.reduction ?? null,
      discount: terms.discount ?? null,
      last_payable_date: last,
    } as DueDate,
    moneyTerms: terms,
    expiresAt: endOfSaoPauloDay(last),
  };
}

/** A due-date charge's terms as the money math reads them; null for an immediate charge. */
export function dueDateTermsOf(charge: Pick<Transaction, "amount" | "due_terms">): DueDateTerms | null {
  if (charge.due_terms === null) return null;
  const { date, days_after_due, fine, interest, reduction, discount } = charge.due_terms as unknown as DueDate;
  return { original: charge.amount, due_date: date, days_after_due, fine, interest, reduction, discount };
}

/**
 * What the payer of `charge` owes for a payment on `date` (`YYYY-MM-DD` in São Paulo): a due-date charge's total and
 * parts, or, for an immediate charge, its amount alone.
 */
export function amountDueOn(charge: Pick<Transaction, "amount" | "due_terms">, date: string): AmountDue {
  const terms = dueDateTermsOf(charge);
  if (terms !== null) return amountDue(terms, date);
  return { original: charge.amount, fine: 0, interest: 0, reduction: 0, discount: 0, total: charge.amount };
}

/**
 * `charge`'s wire object at `now` (`@lm/wire`'s `serializeTransaction`), with a pending due-date charge's amount due
 * today in São Paulo: what every reply and event shows of a charge.
 */
export function transactionObject(charge: Transaction, now: Date): TransactionWire {
  const pendingDueDate = charge.type === "due_date" && charge.status === "pending" && !isExpiredAt(charge, now);
  if (!pendingDueDate) return serializeTransaction(charge, now);
  const today = saoPauloDate(now);
  return serializeTransaction(charge, now, { date: today, amount: amountDueOn(charge, today).total });
}

/**
 * The day a payment of `charge` is made on: `asked`, or today in São Paulo, checked against its payable window (from
 * the day it was created to its last payable day).
 * @throws ApiError `validation_failed` (param `date`) for a day that is not a date or is outside the window
 */
export function paymentDayOf(charge: Transaction, terms: DueDateTerms, asked: string | undefined, now: Date): string {
  const date = asked ?? saoPauloDate(now);
  assertPayableOn(terms, date, { createdOn: saoPauloDate(charge.created_at) });
  return date;
}

/**
 * Use case (`GET /v1/transactions/{id}/amount-due`): what the payer of due-date charge `id` of `scope` owes on
 * `asked` (default today in São Paulo).
 * @returns the day and its amount's parts, in centavos
 * @throws ApiError `resource_not_found` (unknown or foreign id); `invalid_state` for an immediate charge;
 *   `validation_failed` (param `date`) for a day outside its window
 */
export async function findAmountDue(
  repos: Repositories,
  scope: MerchantScope,
  id: string,
  asked: string | undefined,
  now: Date,
): Promise<{ date: string } & AmountDue> {
  const charge = await findTransaction(repos, scope, id);
  const terms = dueDateTermsOf(charge);
  if (terms === null) throw new ApiError("invalid_state", "Only a due-date charge has an amount due by date.");
  const date = paymentDayOf(charge, terms, asked, now);
  return { date, ...amountDue(terms, date) };
}
