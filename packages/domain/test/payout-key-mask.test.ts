import { maskPayoutKey } from "../src";

describe("payout key masks", () => {
  test.each([
    ["cpf", "52998224725", "***.982.247-**"],
    ["cnpj", "11222333000181", "**.222.333/0001-**"],
    ["email", "financeiro@example.com", "f***@example.com"],
    ["phone", "+5511987654321", "+5511*****4321"],
    ["evp", "71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d", "71c7d9be-****-****-****-********9a2d"],
  ] as const)("when a %s key is masked, then only a recognisable part is left", (type, key, masked) => {
    expect(maskPayoutKey(type, key)).toBe(masked);
    expect(maskPayoutKey(type, key)).not.toContain(key);
  });
});
