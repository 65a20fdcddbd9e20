/**
 * The one joi rule of money amounts in request bodies (DESIGN §2 "Money": integer centavos): charges, refunds,
 * withdrawals and simulated disputes all take `amount` through it, so that a refusal always says the unit. A
 * newcomer who sends reais (`100.5` for R$ 100,50) is told the number to send instead of only "must be an integer".
 *
 * A JSON number written with zeros after the point (`100.00`) is the integer 100 once parsed, as in every JSON
 * library, and is taken as 100 centavos: clients that compute centavos in floating point send `1050.0` for 1050.
 */
import Joi from "joi";

/** Largest amount, centavos: R$ 10,000,000.00, well inside a 32-bit column. */
export const MAX_AMOUNT = 1_000_000_000;

/** What a refused amount is told, after its label: the unit, and an example of the conversion. */
const CENTAVOS = "{{#label}} must be an integer number of centavos: 100.50 BRL is 10050";

/**
 * An amount in centavos, 1 to {@link MAX_AMOUNT} (add `.required()` where the field is). A value that is not a
 * number or not an integer is refused with the centavos message, e.g.
 * `"amount" must be an integer number of centavos: 100.50 BRL is 10050`.
 */
export function centavosAmount(): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(1)
    .max(MAX_AMOUNT)
    .messages({ "number.base": CENTAVOS, "number.integer": CENTAVOS, "number.infinity": CENTAVOS });
}
