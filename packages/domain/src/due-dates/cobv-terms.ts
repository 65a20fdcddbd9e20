/**
 * Our due-date terms written as the standard's `cobv` fields (`openapi.yaml` release 2.9: `CobDataDeVencimento` and
 * `CobVValor`), for the bank adapter's `PUT /cobv/{txid}` (DESIGN §13 "Live"). Names and modalidade numbers only:
 * the adapter adds the debtor, the key and the transport.
 */
import { valorFromCentavos } from "@lm/pix-api";
import {
  DEFAULT_DAYS_AFTER_DUE,
  type DayCount,
  type Discount,
  type DueDateTerms,
  type Interest,
} from "./due-date-terms";

/** A `multa`, `juros` or `abatimento` object, and a per-day `desconto`: a modalidade and a decimal string. */
export interface CobvModalidade {
  modalidade: number;
  /** `\d{1,10}\.\d{2}`: reais for a fixed value, a percentage otherwise. */
  valorPerc: string;
}

/** A `desconto` by date (modalidade 1 or 2) with its `descontoDataFixa` tiers. */
export interface CobvDescontoDataFixa {
  modalidade: 1 | 2;
  descontoDataFixa: { data: string; valorPerc: string }[];
}

/** The `calendario` and `valor` of a `cobv` request, as far as the terms decide them. */
export interface CobvTerms {
  calendario: { dataDeVencimento: string; validadeAposVencimento: number };
  valor: {
    original: string;
    multa?: CobvModalidade;
    juros?: CobvModalidade;
    abatimento?: CobvModalidade;
    desconto?: CobvModalidade | CobvDescontoDataFixa;
  };
}

const JUROS_MODALIDADE: Record<Interest["type"], Record<DayCount, number>> = {
  fixed_per_day: { calendar: 1, business: 5 },
  percent_per_day: { calendar: 2, business: 6 },
  percent_per_month: { calendar: 3, business: 7 },
  percent_per_year: { calendar: 4, business: 8 },
};

const DESCONTO_POR_DIA_MODALIDADE: Record<"fixed_per_day_early" | "percent_per_day_early", Record<DayCount, number>> = {
  fixed_per_day_early: { calendar: 3, business: 4 },
  percent_per_day_early: { calendar: 5, business: 6 },
};

const written = (value: number | string): string => (typeof value === "number" ? valorFromCentavos(value) : value);

/**
 * Writes validated terms (`validateDueDateTerms`) as the standard's fields: `fine` → `multa` (fixed 1, percent 2),
 * `interest` → `juros` (1 to 4 with calendar days, 5 to 8 with business days, in the order fixed, per day, per month,
 * per year), `reduction` → `abatimento` (fixed 1, percent 2), `discount` → `desconto` (tiers: fixed 1, percent 2 with
 * `descontoDataFixa`; per day early: fixed 3 calendar, 4 business, percent 5 calendar, 6 business). Centavos become
 * decimal strings ("12.34"); percentage strings pass as they are. `days_after_due` is always written (default 30).
 * @throws RangeError for an amount `valorFromCentavos` refuses: the terms were not validated
 */
export function toCobvTerms(terms: DueDateTerms): CobvTerms {
  const { fine, interest, reduction, discount } = terms;
  const valor: CobvTerms["valor"] = { original: valorFromCentavos(terms.original) };
  if (fine != null) valor.multa = { modalidade: fine.type === "fixed" ? 1 : 2, valorPerc: written(fine.value) };
  if (interest != null)
    valor.juros = { modalidade: JUROS_MODALIDADE[interest.type][interest.days], valorPerc: written(interest.value) };
  if (reduction != null)
    valor.abatimento = { modalidade: reduction.type === "fixed" ? 1 : 2, valorPerc: written(reduction.value) };
  if (discount != null) valor.desconto = desconto(discount);
  return {
    calendario: {
      dataDeVencimento: terms.due_date,
      validadeAposVencimento: terms.days_after_due ?? DEFAULT_DAYS_AFTER_DUE,
    },
    valor,
  };
}

function desconto(discount: Discount): CobvModalidade | CobvDescontoDataFixa {
  if (discount.type === "fixed_until" || discount.type === "percent_until")
    return {
      modalidade: discount.type === "fixed_until" ? 1 : 2,
      descontoDataFixa: discount.tiers.map((tier) => ({ data: tier.until, valorPerc: written(tier.value) })),
    };
  return { modalidade: DESCONTO_POR_DIA_MODALIDADE[discount.type][discount.days], valorPerc: written(discount.value) };
}
