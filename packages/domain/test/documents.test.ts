import { maskTaxDocument, parseTaxDocument } from "../src";

describe("parseTaxDocument", () => {
  test.each([
    ["111.444.777-35", { kind: "cpf", digits: "11144477735" }],
    ["11144477735", { kind: "cpf", digits: "11144477735" }],
    ["11.222.333/0001-81", { kind: "cnpj", digits: "11222333000181" }],
  ])("when %s is valid, then it parses to its digits", (input, expected) => {
    expect(parseTaxDocument(input)).toEqual(expected);
  });

  test.each(["11144477734", "111.111.111-11", "11222333000180", "1234", "abc11144477735", "", "11144477735x"])(
    "when %p has a wrong check digit, length or character, then it is refused",
    (input) => {
      expect(parseTaxDocument(input)).toBeNull();
    },
  );
});

describe("maskTaxDocument", () => {
  test("when masking a CPF or CNPJ, then only the middle digits remain", () => {
    expect(maskTaxDocument("11144477735")).toBe("***.444.777-**");
    expect(maskTaxDocument("11222333000181")).toBe("**.222.333/0001-**");
    expect(maskTaxDocument("123")).toBe("***");
  });
});
