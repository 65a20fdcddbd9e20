/**
 * Our due-date terms written as the standard's `cobv` fields (`openapi.yaml` release 2.9: `CobDataDeVencimento` and
 * `CobVValor`) and read back from them: the bank adapter writes `PUT /cobv/{txid}` with {@link toCobvTerms}, and the
 * bank emulator, playing the payer's bank, reads a registered `cobv` with {@link fromCobvTerms} to compute what is
 * due (DESIGN §13 "Live"). Names and modalidade numbers only: the adapter adds the debtor, the key and the transport.
 */
import {
  centavosFromValor,
  valorFromCentavos,
  type CobvDescontoDataFixa,
  type CobvModalidade,
  type CobvTerms,
} from "@lm/pix-api";
import {
  DEFAULT_DAYS_AFTER_DUE,
  type DayCount,
  type Discount,
  type DueDateTerms,
  type Interest,
} from "./due-date-terms";

const JUROS_MODALIDADE: Record<Interest["type"], Record<DayCount, number>> = {
  fixed_per_day: { calendar: 1, business: 5 },
  percent_per_day: { calendar: 2, business: 6 },
  percent_per_month: { calendar: 3, business: 7 },
  percent_per_year: { calendar: 4, business: 8 },
};

type DiscountPerDay = "fixed_per_day_early" | "percent_per_day_early";

const DESCONTO_POR_DIA_MODALIDADE: Record<DiscountPerDay, Record<DayCount, number>> = {
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

/** The key of `table` whose entry maps `modalidade` under some day count, with that day count. */
function modalidadeOf<K extends string>(
  table: Record<K, Record<DayCount, number>>,
  modalidade: number,
): { type: K; days: DayCount } {
  for (const [type, byDays] of Object.entries(table) as [K, Record<DayCount, number>][]) {
    if (byDays.calendar === modalidade) return { type, days: "calendar" };
    if (byDays.business === modalidade) return { type, days: "business" };
  }
  throw new RangeError(`unknown modalidade ${modalidade}`);
}

/** A fixed `valorPerc` (reais) as centavos. */
function centavos(valorPerc: string): number {
  const value = centavosFromValor(valorPerc);
  if (value === null) throw new RangeError(`not an amount: ${valorPerc}`);
  return value;
}

/**
 * Reads the standard's `cobv` fields back as our terms, the inverse of {@link toCobvTerms}: what a payer's bank reads
 * of a registered due-date charge before it computes the total (`amountDue`).
 * @throws RangeError for a modalidade or an amount the standard does not define (the fields were not schema-checked)
 */
export function fromCobvTerms(cobv: CobvTerms): DueDateTerms {
  const { multa, juros, abatimento, desconto: off } = cobv.valor;
  const terms: DueDateTerms = {
    original: centavos(cobv.valor.original),
    due_date: cobv.calendario.dataDeVencimento,
    days_after_due: cobv.calendario.validadeAposVencimento ?? DEFAULT_DAYS_AFTER_DUE,
  };
  if (multa !== undefined)
    terms.fine =
      multa.modalidade === 1
        ? { type: "fixed", value: centavos(multa.valorPerc) }
        : { type: "percent", value: multa.valorPerc };
  if (juros !== undefined) {
    const { type, days } = modalidadeOf(JUROS_MODALIDADE, juros.modalidade);
    terms.interest =
      type === "fixed_per_day"
        ? { type, days, value: centavos(juros.valorPerc) }
        : { type, days, value: juros.valorPerc };
  }
  if (abatimento !== undefined)
    terms.reduction =
      abatimento.modalidade === 1
        ? { type: "fixed", value: centavos(abatimento.valorPerc) }
        : { type: "percent", value: abatimento.valorPerc };
  if (off !== undefined) terms.discount = discountOf(off);
  return terms;
}

function discountOf(off: CobvModalidade | CobvDescontoDataFixa): Discount {
  if ("descontoDataFixa" in off) {
    return off.modalidade === 1
      ? {
          type: "fixed_until",
          tiers: off.descontoDataFixa.map((t) => ({ until: t.data, value: centavos(t.valorPerc) })),
        }
      : { type: "percent_until", tiers: off.descontoDataFixa.map((t) => ({ until: t.data, value: t.valorPerc })) };
  }
  const { type, days } = modalidadeOf(DESCONTO_POR_DIA_MODALIDADE, off.modalidade);
  return type === "fixed_per_day_early"
    ? { type, days, value: centavos(off.valorPerc) }
    : { type, days, value: off.valorPerc };
}
