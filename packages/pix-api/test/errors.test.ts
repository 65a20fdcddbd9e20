import { MAX_REASON_LENGTH, PixApiError, reasonFromReply } from "../src/errors";

describe("reasonFromReply", () => {
  test("when the body is the standard's problem, then its title, detail and first violation", () => {
    const problem = {
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      title: "Cobrança inválida.",
      status: 400,
      detail: "A requisição que busca alterar ou criar uma cobrança não respeita o schema.",
      violacoes: [{ razao: "O campo cob.valor.original não respeita o schema.", propriedade: "cob.valor.original" }],
    };

    expect(reasonFromReply(400, problem)).toBe(
      "Cobrança inválida.: A requisição que busca alterar ou criar uma cobrança não respeita o schema.: " +
        "cob.valor.original: O campo cob.valor.original não respeita o schema.",
    );
  });

  test("when the body is an OAuth2 error or Efí's own, then its code and description", () => {
    expect(reasonFromReply(401, { error: "invalid_client" })).toBe("invalid_client");
    expect(reasonFromReply(400, { error: "invalid_request", error_description: "grant_type missing" })).toBe(
      "invalid_request: grant_type missing",
    );
    expect(reasonFromReply(400, { nome: "valor_invalido", mensagem: "Valor acima do limite" })).toBe(
      "valor_invalido: Valor acima do limite",
    );
  });

  test("when the body says nothing usable, then the HTTP status", () => {
    expect(reasonFromReply(502, undefined)).toBe("HTTP 502");
    expect(reasonFromReply(400, { title: "  ", status: 400 })).toBe("HTTP 400");
    expect(reasonFromReply(400, ["x"])).toBe("HTTP 400");
  });
});

describe("PixApiError", () => {
  test("when the reason is long, then it is cut to 200 characters in the reason and the message", () => {
    const error = new PixApiError("rejected", 400, "x".repeat(500));

    expect(error.reason).toHaveLength(MAX_REASON_LENGTH);
    expect(error.message).toBe(`bank rejected (HTTP 400): ${"x".repeat(MAX_REASON_LENGTH)}`);
    expect(error).toMatchObject({ name: "PixApiError", kind: "rejected", status: 400 });
  });

  test("when no reply arrived, then the status is null and the message says unavailable", () => {
    const error = new PixApiError("unavailable", null, "no reply within 300 ms");

    expect(error.status).toBeNull();
    expect(error.message).toBe("bank unavailable: no reply within 300 ms");
  });
});
