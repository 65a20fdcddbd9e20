import { profileRules } from "../src/profiles";

describe("profileRules", () => {
  test("when the profile is bcb, then the standard's paths hang off apiUrl and there are no payouts", () => {
    const rules = profileRules("bcb", "https://pix.example.com/api/v2");

    expect(rules.cob("abc123")).toBe("https://pix.example.com/api/v2/cob/abc123");
    expect(rules.pix("E1234")).toBe("https://pix.example.com/api/v2/pix/E1234");
    expect(rules.refund("E1234", "D1")).toBe("https://pix.example.com/api/v2/pix/E1234/devolucao/D1");
    expect(rules.webhook("key")).toBe("https://pix.example.com/api/v2/webhook/key");
    expect(rules.payouts).toBeNull();
    expect(rules.tokenBody).toEqual({ form: { grant_type: "client_credentials" } });
  });

  test("when the profile is efi, then payouts live at the API's origin and the token is asked for with JSON", () => {
    const rules = profileRules("efi", "https://pix.api.efipay.com.br/v2");

    expect(rules.cob("abc123")).toBe("https://pix.api.efipay.com.br/v2/cob/abc123");
    expect(rules.payouts?.send("id1")).toBe("https://pix.api.efipay.com.br/v3/gn/pix/id1");
    expect(rules.payouts?.read("id1")).toBe("https://pix.api.efipay.com.br/v2/gn/pix/enviados/id-envio/id1");
    expect(rules.tokenBody).toEqual({ json: { grant_type: "client_credentials" } });
  });

  test("when apiUrl ends with a slash or has a port, then paths are joined once and the origin keeps the port", () => {
    const rules = profileRules("efi", "https://127.0.0.1:8443/v2/");

    expect(rules.cob("t")).toBe("https://127.0.0.1:8443/v2/cob/t");
    expect(rules.payouts?.send("i")).toBe("https://127.0.0.1:8443/v3/gn/pix/i");
  });

  test("when an argument holds slashes, dots, spaces or an e-mail key, then it stays one encoded path segment", () => {
    const rules = profileRules("bcb", "https://pix.example.com/v2");

    expect(rules.cob("../webhook/x")).toBe("https://pix.example.com/v2/cob/..%2Fwebhook%2Fx");
    expect(rules.webhook("loja@example.com")).toBe("https://pix.example.com/v2/webhook/loja%40example.com");
    expect(rules.webhook("+5511999998888")).toBe("https://pix.example.com/v2/webhook/%2B5511999998888");
    expect(rules.refund("a b", "c?d")).toBe("https://pix.example.com/v2/pix/a%20b/devolucao/c%3Fd");
    expect(profileRules("efi", "https://x.test/v2").payouts?.read("a#b")).toBe(
      "https://x.test/v2/gn/pix/enviados/id-envio/a%23b",
    );
  });

  test("when listing payments, then the range is sent as RFC 3339 instants with the page number", () => {
    const rules = profileRules("bcb", "https://pix.example.com/v2");
    const url = new URL(
      rules.pixList({ from: new Date("2024-01-01T00:00:00Z"), to: new Date("2024-01-02T12:30:00.500Z") }, 3),
    );

    expect(url.pathname).toBe("/v2/pix");
    expect(url.searchParams.get("inicio")).toBe("2024-01-01T00:00:00.000Z");
    expect(url.searchParams.get("fim")).toBe("2024-01-02T12:30:00.500Z");
    expect(url.searchParams.get("paginacao.paginaAtual")).toBe("3");
  });

  test("when the profile is unknown or apiUrl is not absolute, then TypeError", () => {
    expect(() => profileRules("other" as "bcb", "https://pix.example.com/v2")).toThrow(TypeError);
    expect(() => profileRules("bcb", "/v2")).toThrow(TypeError);
  });
});
