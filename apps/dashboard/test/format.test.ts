/**
 * Money and dates as the dashboard shows them (DESIGN §15): reais from integer centavos (`R$ 1.234,56` in pt-BR), the
 * amounts a seller types read back as centavos, and instants in São Paulo time whatever the machine's zone.
 */
import {
  formatDateTime,
  formatDay,
  formatMoney,
  isoToSaoPauloInput,
  parseMoney,
  saoPauloInputToIso,
} from "../src/i18n/format";

describe("the dashboard's money and dates", () => {
  test("when centavos are shown, then pt-BR writes R$ 1.234,56 and English R$1,234.56", () => {
    expect(formatMoney(123456, "pt-BR")).toBe("R$\u00a01.234,56");
    expect(formatMoney(5, "pt-BR")).toBe("R$\u00a00,05");
    expect(formatMoney(-1500, "pt-BR")).toBe("-R$\u00a015,00");
    expect(formatMoney(123456, "en")).toBe("R$1,234.56");
  });

  test("when a seller types an amount, then it is read as centavos in either writing; anything else is null", () => {
    expect(
      ["1.234,56", "1,234.56", "1234,56", "1234.56", "R$ 1.234,56", "10", "12,5", "0,01", "1.234"].map((text) =>
        parseMoney(text),
      ),
    ).toEqual([123456, 123456, 123456, 123456, 123456, 1000, 1250, 1, 123400]);
    expect(["", "abc", "1,234,5", "1.234.5", "-5", "1e3"].map((text) => parseMoney(text))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  test("when an instant is shown, then it is São Paulo's time (UTC−3), not the machine's", () => {
    expect(formatDateTime("2026-12-07T02:30:05.000Z", "pt-BR")).toBe("06/12/2026, 23:30:05");
    expect(formatDateTime(null, "pt-BR")).toBe("—");
    expect(formatDay("2026-12-07", "pt-BR")).toBe("07/12");
  });

  test("when a time range is typed in São Paulo time, then it becomes the same instant and back", () => {
    expect(saoPauloInputToIso("2026-12-07T14:30")).toBe("2026-12-07T17:30:00.000Z");
    expect(isoToSaoPauloInput("2026-12-07T17:30:00.000Z")).toBe("2026-12-07T14:30");
  });
});
