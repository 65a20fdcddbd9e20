/**
 * The amount due on a day for a due-date charge: the one implementation of DESIGN §13's money math, the computation
 * the standard leaves to the payer's bank (`openapi.yaml` release 2.9: `CobVValor` for the terms,
 * `Pix.componentesValor` for how the parts add up, `CobDataDeVencimento` for the due date's move).
 *
 * total = original + fine + interest − reduction − discount, never below zero. Where the standard leaves a choice:
 * - every percentage applies to the original amount (`valor.original`), never to a running total, so the parts do not
 *   depend on the order they are applied in;
 * - each part is rounded half-up to the centavo once, from its exact value (interest over 45 days is one rounding, not
 *   45); the standard's worked example (R$ 100,00 paid 2 days late with a 3 % fine and 1 % a day: components 3,00
 *   and 2,00, R$ 105,00, in `Pix.componentesValor`) holds either way;
 * - "late" means paid after the effective due date (`effectiveDueDate`); the fine is due from the first day late, and
 *   interest counts the calendar days after the effective due date, or the business days after it up to the payment
 *   date included (so a Saturday after a Friday due date brings the fine but no business-day interest yet);
 * - days of early payment mirror that: calendar days from the payment date to the effective due date, or the business
 *   days after the payment date up to the effective due date included; paying on the due date earns no discount per
 *   day;
 * - of the discount tiers, the first (earliest) one whose date is on or after the payment date applies; a tier dated on
 *   the due date lasts until the effective due date, other tier dates stand as written (Pix runs every day);
 * - the reduction applies whatever the day; the discount is capped at what is left after it, so that the parts always
 *   add up to the total the way `componentesValor` requires, and a total that would go below zero is zero with the
 *   discount trimmed, never a negative part.
 */
import { validationFailed } from "../errors";
import { businessDaysBetween } from "./business-days";
import type { DayCount, Discount, DueDateTerms, Fine, Interest, Reduction } from "./due-date-terms";
import { dayOf, parseIsoDate } from "./iso-dates";
import { effectiveDueDay } from "./payable-window";
import { percentOf } from "./percent-math";
import { validateDueDateTerms } from "./validate-due-date-terms";

/** The parts of the amount due on one day, all integer centavos; `total` is what the payer pays. */
export interface AmountDue {
  original: number;
  fine: number;
  interest: number;
  reduction: number;
  discount: number;
  total: number;
}

/**
 * What the payer owes on `paymentDate` under `terms`, and its parts. It does not check the payable window
 * (`assertPayableOn` does), because a bank may accept a payment we would not (a holiday of the payer's city) and its
 * figure is then compared with ours; the amounts stay exact for 24 years after the due date even with the largest
 * terms.
 * @param terms - the charge's terms; validated here with `validateDueDateTerms` (without `today`)
 * @param paymentDate - `YYYY-MM-DD`, the payment's calendar date in America/Sao_Paulo
 * @returns integer centavos: `original`, `fine` and `interest` (zero unless paid after the effective due date),
 *   `reduction`, `discount` (zero when paid after it) and `total` = original + fine + interest − reduction − discount,
 *   never below zero
 * @throws ApiError `validation_failed` naming the term at fault when the terms are invalid, or param `date` when
 *   `paymentDate` is not a real `YYYY-MM-DD` date
 */
export function amountDue(terms: DueDateTerms, paymentDate: string): AmountDue {
  validateDueDateTerms(terms);
  const paid = parseIsoDate(paymentDate);
  if (paid === null) throw validationFailed("The date must be a real date written YYYY-MM-DD.", "date");
  const { original } = terms;
  const due = effectiveDueDay(terms);
  const late = paid > due;
  const fine = late && terms.fine != null ? fixedOrPercent(terms.fine, original) : 0;
  const interest = late && terms.interest != null ? interestOf(terms.interest, original, due, paid) : 0;
  const reduction = terms.reduction != null ? fixedOrPercent(terms.reduction, original) : 0;
  const left = original + fine + interest - reduction;
  const earned = !late && terms.discount != null ? discountOf(terms.discount, terms, due, paid) : 0;
  const discount = Math.min(earned, left);
  return { original, fine, interest, reduction, discount, total: left - discount };
}

const DAYS_PER_PERIOD: Record<Exclude<Interest["type"], "fixed_per_day">, Record<DayCount, number>> = {
  percent_per_day: { calendar: 1, business: 1 },
  percent_per_month: { calendar: 30, business: 21 },
  percent_per_year: { calendar: 365, business: 252 },
};

function fixedOrPercent(part: Fine | Reduction, original: number): number {
  return part.type === "fixed" ? part.value : percentOf(original, part.value);
}

function interestOf(interest: Interest, original: number, due: number, paid: number): number {
  const days = interest.days === "calendar" ? paid - due : businessDaysBetween(due, paid);
  if (interest.type === "fixed_per_day") return interest.value * days;
  return percentOf(original, interest.value, days, DAYS_PER_PERIOD[interest.type][interest.days]);
}

function discountOf(discount: Discount, terms: DueDateTerms, due: number, paid: number): number {
  if (discount.type === "fixed_until" || discount.type === "percent_until") {
    const until = (date: string) => (date === terms.due_date ? due : dayOf(date));
    const tier = discount.tiers.find((candidate) => paid <= until(candidate.until));
    if (tier === undefined) return 0;
    return typeof tier.value === "number" ? tier.value : percentOf(terms.original, tier.value);
  }
  const days = discount.days === "calendar" ? due - paid : businessDaysBetween(paid, due);
  if (discount.type === "fixed_per_day_early") return discount.value * days;
  return percentOf(terms.original, discount.value, days);
}
