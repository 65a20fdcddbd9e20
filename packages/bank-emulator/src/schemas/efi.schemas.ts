/**
 * JSON Schemas of Efí's payout extension (not in the standard), written from Efí's public API documentation
 * ("Requisitar envio de Pix", `PUT /v3/gn/pix/{idEnvio}`, and "Consultar Pix enviado através de idEnvio",
 * `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`). Anchored patterns and closed objects, as in the standard's
 * schemas beside this file. Efí also accepts a payee given by bank account (`favorecido.contaBanco`); the emulator
 * pays keys only, so its schema admits keys only.
 */
import { VALOR_PATTERN } from "../money";

const chave = { type: "string", maxLength: 77 } as const;

/** `idEnvio`: 1 to 35 letters and digits, chosen by the client. */
const idEnvioSchema = { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" } as const;

/** Path of both payout routes. */
export const payoutPathSchema = {
  type: "object",
  required: ["idEnvio"],
  properties: { idEnvio: idEnvioSchema },
} as const;

/** Body of `PUT /v3/gn/pix/{idEnvio}`: the amount, the paying key (the account's own) and the payee's key. */
export const payoutRequestSchema = {
  type: "object",
  required: ["valor", "pagador", "favorecido"],
  properties: {
    valor: { type: "string", pattern: VALOR_PATTERN },
    pagador: {
      type: "object",
      required: ["chave"],
      properties: { chave, infoPagador: { type: "string", maxLength: 140 } },
      additionalProperties: false,
    },
    favorecido: {
      type: "object",
      required: ["chave"],
      properties: {
        chave,
        cpf: { type: "string", pattern: "^\\d{11}$" },
        cnpj: { type: "string", pattern: "^[0-9A-Z]{14}$" },
      },
      not: { required: ["cpf", "cnpj"] },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;
