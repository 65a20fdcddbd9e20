/**
 * The rules a due-date charge's terms must keep (DESIGN §13: "anything the standard would refuse is 400
 * `validation_failed` naming the field"). From the standard (`openapi.yaml` release 2.9: the `CobVValor` schema and
 * the `CobVOperacaoInvalida` violations): the original amount is not zero; modalidades are the listed ones; a
 * reduction or any discount element is less than the original amount and less than 100 %; discount tiers are 1 to 3,
 * distinct, dated on or before the due date; a discount by date has tiers and no single value, a discount per day a
 * value and no tiers; `validadeAposVencimento` is not negative. Ours on top: every value is positive (a rule worth
 * zero is left out); percentages are written with exactly two decimals and no leading zero; a fine or an interest rate
 * is at most 100.00 %; tier dates increase; `days_after_due` is at most 365; amounts fit the standard's ten integer
 * digits.
 */
import { MAX_VALOR_CENTAVOS } from "@lm/pix-api";
import { validationFailed } from "../errors";
import {
  MAX_DAYS_AFTER_DUE,
  type Discount,
  type DueDateTerms,
  type Fine,
  type Interest,
  type Reduction,
} from "./due-date-terms";
import { dayOf, parseIsoDate } from "./iso-dates";
import { percentHundredths } from "./percent-math";

/** How {@link validateDueDateTerms} checks and names fields. */
export interface ValidateDueDateTermsOptions {
  /** `YYYY-MM-DD`, today in America/Sao_Paulo: when given, `due_date` must not be before it (creating a charge). */
  today?: string;
  /** Put before every field path in `param`, e.g. `"due_date."` when the terms sit under that key of a body. */
  paramPrefix?: string;
}

const INTEREST_TYPES = ["fixed_per_day", "percent_per_day", "percent_per_month", "percent_per_year"];
const DISCOUNT_TYPES = ["fixed_until", "percent_until", "fixed_per_day_early", "percent_per_day_early"];
const DAY_COUNTS = ["calendar", "business"];
const MAX_TIERS = 3;

type Fail = (message: string, path: string) => never;

/**
 * Checks a due-date charge's terms against the standard's rules and ours (see the module's comment).
 * @param terms - the terms as received; fields are checked at run time, whatever their static type
 * @throws ApiError `validation_failed` for the first broken rule, with `param` the field's path in the terms (after
 *   `options.paramPrefix`): `original`, `due_date`, `days_after_due`, `fine.type`, `fine.value`, `interest.type`,
 *   `interest.days`, `interest.value`, `reduction.type`, `reduction.value`, `discount.type`, `discount.days`,
 *   `discount.value`, `discount.tiers`, `discount.tiers[i].until` or `discount.tiers[i].value` (`i` from 0);
 *   RangeError when `options.today` is not a real `YYYY-MM-DD` date
 */
export function validateDueDateTerms(terms: DueDateTerms, options: ValidateDueDateTermsOptions = {}): void {
  const fail: Fail = (message, path) => {
    throw validationFailed(message, `${options.paramPrefix ?? ""}${path}`);
  };
  const { original } = terms;
  if (!isCentavos(original, 1, MAX_VALOR_CENTAVOS))
    fail(`The original amount must be a whole number of centavos from 1 to ${MAX_VALOR_CENTAVOS}.`, "original");
  const dueDay =
    parseIsoDate(terms.due_date) ?? fail("The due date must be a real date written YYYY-MM-DD.", "due_date");
  if (options.today !== undefined && dueDay < dayOf(options.today))
    fail("The due date must be today or later.", "due_date");
  const days = terms.days_after_due;
  if (days != null && !(Number.isInteger(days) && days >= 0 && days <= MAX_DAYS_AFTER_DUE))
    fail(`Days after due must be a whole number from 0 to ${MAX_DAYS_AFTER_DUE}.`, "days_after_due");
  if (terms.fine != null) checkFine(terms.fine, fail);
  if (terms.interest != null) checkInterest(terms.interest, fail);
  if (terms.reduction != null) checkReduction(terms.reduction, original, fail);
  if (terms.discount != null) checkDiscount(terms.discount, original, dueDay, fail);
}

function checkFine(fine: Fine, fail: Fail): void {
  if (fine.type === "fixed") {
    if (!isCentavos(fine.value, 1, MAX_VALOR_CENTAVOS))
      fail(`A fixed fine must be a whole number of centavos from 1 to ${MAX_VALOR_CENTAVOS}.`, "fine.value");
  } else if (fine.type === "percent") {
    if (!isPercent(fine.value, 10_000)) fail(percentMessage("A percent fine", "100.00"), "fine.value");
  } else fail("The fine's type must be fixed or percent.", "fine.type");
}

function checkInterest(interest: Interest, fail: Fail): void {
  if (!INTEREST_TYPES.includes(interest.type))
    fail(`The interest's type must be one of ${INTEREST_TYPES.join(", ")}.`, "interest.type");
  if (!DAY_COUNTS.includes(interest.days)) fail("The interest's days must be calendar or business.", "interest.days");
  if (interest.type === "fixed_per_day") {
    if (!isCentavos(interest.value, 1, MAX_VALOR_CENTAVOS))
      fail(
        `Fixed interest must be a whole number of centavos from 1 to ${MAX_VALOR_CENTAVOS} a day.`,
        "interest.value",
      );
  } else if (!isPercent(interest.value, 10_000)) fail(percentMessage("An interest rate", "100.00"), "interest.value");
}

function checkReduction(reduction: Reduction, original: number, fail: Fail): void {
  if (reduction.type === "fixed") {
    if (!isCentavos(reduction.value, 1, original - 1))
      fail(
        "A fixed reduction must be a whole number of centavos, at least 1 and less than the original amount.",
        "reduction.value",
      );
  } else if (reduction.type === "percent") {
    if (!isPercent(reduction.value, 9_999)) fail(percentMessage("A percent reduction", "99.99"), "reduction.value");
  } else fail("The reduction's type must be fixed or percent.", "reduction.type");
}

function checkDiscount(discount: Discount, original: number, dueDay: number, fail: Fail): void {
  if (!DISCOUNT_TYPES.includes(discount.type))
    fail(`The discount's type must be one of ${DISCOUNT_TYPES.join(", ")}.`, "discount.type");
  const fixed = discount.type === "fixed_until" || discount.type === "fixed_per_day_early";
  const checkValue = (value: unknown, path: string) => {
    if (fixed && !isCentavos(value, 1, original - 1))
      fail("A fixed discount must be a whole number of centavos, at least 1 and less than the original amount.", path);
    if (!fixed && !isPercent(value, 9_999)) fail(percentMessage("A percent discount", "99.99"), path);
  };
  if (discount.type === "fixed_until" || discount.type === "percent_until") {
    if ("value" in discount)
      fail("A discount by date takes its values in tiers, not a single value.", "discount.value");
    const tiers: unknown[] = Array.isArray(discount.tiers) ? discount.tiers : [];
    if (tiers.length < 1 || tiers.length > MAX_TIERS)
      fail(`A discount by date must have 1 to ${MAX_TIERS} tiers.`, "discount.tiers");
    let previous = -Infinity;
    tiers.forEach((tier, i) => {
      const { until, value } = (tier ?? {}) as { until?: unknown; value?: unknown };
      const day = parseIsoDate(until);
      if (day === null || day > dueDay)
        fail(
          "Each tier's date must be a real date written YYYY-MM-DD, on or before the due date.",
          `discount.tiers[${i}].until`,
        );
      if (day <= previous) fail("Tier dates must increase from one tier to the next.", `discount.tiers[${i}].until`);
      previous = day;
      checkValue(value, `discount.tiers[${i}].value`);
    });
  } else {
    if ("tiers" in discount) fail("A discount per day takes a single value, not tiers.", "discount.tiers");
    if (!DAY_COUNTS.includes(discount.days)) fail("The discount's days must be calendar or business.", "discount.days");
    checkValue(discount.value, "discount.value");
  }
}

function isCentavos(value: unknown, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

function isPercent(value: unknown, maxHundredths: number): boolean {
  const hundredths = percentHundredths(value);
  return hundredths !== null && hundredths >= 1 && hundredths <= maxHundredths;
}

function percentMessage(what: string, max: string): string {
  return `${what} must be a string with two decimals from "0.01" to "${max}", e.g. "2.00".`;
}
