import fc from "fast-check";
import { MAX_VALOR_CENTAVOS, centavosFromValor, valorFromCentavos } from "../src/amounts";

const VALOR_PATTERN = /^\d{1,10}\.\d{2}$/;

describe("valorFromCentavos", () => {
  test("when given centavos, then the standard's decimal string with two decimals", () => {
    expect(valorFromCentavos(0)).toBe("0.00");
    expect(valorFromCentavos(5)).toBe("0.05");
    expect(valorFromCentavos(99)).toBe("0.99");
    expect(valorFromCentavos(100)).toBe("1.00");
    expect(valorFromCentavos(1234)).toBe("12.34");
    expect(valorFromCentavos(MAX_VALOR_CENTAVOS)).toBe("9999999999.99");
  });

  test("when given any amount from 0 to 9999999999.99, then reading the string back gives the same centavos", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_VALOR_CENTAVOS }), (centavos) => {
        const valor = valorFromCentavos(centavos);
        return VALOR_PATTERN.test(valor) && centavosFromValor(valor) === centavos;
      }),
      { numRuns: 5000 },
    );
  });

  test("when given a fraction, a negative, a non-finite number or more than 9999999999.99, then RangeError", () => {
    for (const bad of [0.5, 12.34, -1, -0.01, MAX_VALOR_CENTAVOS + 1, 2 ** 53, Number.NaN, Infinity, -Infinity]) {
      expect(() => valorFromCentavos(bad)).toThrow(RangeError);
    }
  });

  test("when given any non-integer, then RangeError", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: MAX_VALOR_CENTAVOS, noNaN: true }).filter((n) => !Number.isInteger(n)),
        (n) => {
          expect(() => valorFromCentavos(n)).toThrow(RangeError);
        },
      ),
    );
  });
});

describe("centavosFromValor", () => {
  test("when the string matches the standard's pattern, then its centavos, leading zeros allowed", () => {
    expect(centavosFromValor("12.34")).toBe(1234);
    expect(centavosFromValor("0.01")).toBe(1);
    expect(centavosFromValor("01.50")).toBe(150);
    expect(centavosFromValor("0000000000.00")).toBe(0);
    expect(centavosFromValor("9999999999.99")).toBe(MAX_VALOR_CENTAVOS);
    // Amounts whose float would not be exact still read exactly.
    expect(centavosFromValor("0.29")).toBe(29);
    expect(centavosFromValor("1234567.89")).toBe(123456789);
  });

  test("when the string breaks the pattern, then null", () => {
    const bad = [
      "1.5",
      "1",
      "1.",
      ".50",
      "1.500",
      "1,50",
      "-1.00",
      "+1.00",
      " 1.00",
      "1.00 ",
      "1.00\n",
      "12345678901.00",
      "1e3.00",
      "١.٠٠",
      "",
    ];
    for (const valor of bad) expect(centavosFromValor(valor)).toBeNull();
  });

  test("when the value is not a string, then null", () => {
    for (const valor of [12.34, 1234, null, undefined, { valor: "1.00" }, ["1.00"]]) {
      expect(centavosFromValor(valor)).toBeNull();
    }
  });

  test("when given any string, then a number exactly when it matches ^\\d{1,10}\\.\\d{2}$", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{1,11}\.\d{1,3}$/)), (valor) => {
        const centavos = centavosFromValor(valor);
        expect(centavos !== null).toBe(VALOR_PATTERN.test(valor));
        if (centavos !== null) expect(Number.isSafeInteger(centavos)).toBe(true);
      }),
    );
  });
});
