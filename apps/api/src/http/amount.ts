/**
 * The one joi rule of money amounts in request bodies (DESIGN §2 "Money": integer centavos): charges, refunds,
 * withdrawals and simulated disputes all take `amount` through it, so that a refusal always says the unit. A
 * newcomer who sends reais (`100.5` for R$ 100,50) is told the number to send instead of only "must be an integer".
 *
 * A JSON number written with a point or an exponent (`100.00`, `1e3`) is refused too ({@link keepWrittenAmount}),
 * though JSON reads `100.00` as the integer 100: taken as 100 centavos, it would charge R$ 1,00 to someone who meant
 * R$ 100,00.
 */
import type { NextFunction, Request, Response } from "express";
import Joi from "joi";
import { isLosslessNumber, parse } from "lossless-json";

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

/**
 * An `"amount"` member whose number has a point or an exponent, as text: cheap, and may match inside a string, so a
 * match is only a reason to read the body again.
 */
const DECIMAL_AMOUNT = /"amount"\s*:\s*-?\d+[.eE]/;

/**
 * The objects of a parsed body whose `amount` is a number (`isNumber` says what a number is in the parser's output):
 * the body itself, and each item of a batch's `transactions`, in that order.
 */
function amountHolders(body: unknown, isNumber: (value: unknown) => boolean): Array<Record<string, unknown>> {
  if (typeof body !== "object" || body === null) return [];
  const { transactions } = body as { transactions?: unknown };
  const items = Array.isArray(transactions) ? (transactions as unknown[]) : [];
  return [body, ...items].filter(
    (holder): holder is Record<string, unknown> =>
      typeof holder === "object" && holder !== null && isNumber((holder as { amount?: unknown }).amount),
  );
}

/**
 * Body middleware, after JSON parsing: an `amount` written with a decimal point or an exponent (`100.00`, `1e3`), at
 * the top level or in an item of a batch's `transactions` (`POST /v1/transaction-batches`), is put back as the text it
 * was written as, so that {@link centavosAmount} refuses it with the centavos message instead of taking `100.00` as 100
 * centavos. Only a body with such an `amount` parsed as a number and whose text looks like it holds one
 * ({@link DECIMAL_AMOUNT}) is read again, with lossless-json, which keeps each number's text; one it cannot read (a
 * duplicate key, which JSON.parse resolves to the last) is left as parsed.
 */
export function keepWrittenAmount(req: Request, _res: Response, next: NextFunction): void {
  const raw = req.rawBody;
  const holders = raw === undefined ? [] : amountHolders(req.body, (amount) => typeof amount === "number");
  if (raw !== undefined && holders.length > 0 && DECIMAL_AMOUNT.test(raw.toString("latin1"))) {
    try {
      // The same objects in the same places: the text parsed again holds the same body, each number as written.
      const written = amountHolders(parse(raw.toString("utf8")), isLosslessNumber);
      holders.forEach((holder, i) => {
        const amount = written[i]?.amount;
        if (isLosslessNumber(amount) && !/^-?\d+$/.test(amount.value)) holder.amount = amount.value;
      });
    } catch {
      // Left as JSON.parse read it.
    }
  }
  next();
}
