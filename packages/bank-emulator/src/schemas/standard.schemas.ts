/**
 * JSON Schemas (draft 2020-12 keywords that ajv 8 reads) of the requests the emulator serves, written from the
 * standard's OpenAPI document (`bacen/pix-api` `openapi.yaml`, release 2.x: `CobSolicitada`, `CobRevisada`,
 * `DevolucaoSolicitada`, `WebhookSolicitado`, the path parameters `TxId`, `EndToEndId`, `DevolucaoId`, the webhook's
 * `chave`, and the query parameters of `GET /cob/{txid}` and `GET /pix`).
 *
 * Two deliberate differences from the document, both stricter:
 * - patterns are anchored (`^…$`): the document writes them bare, which a JSON Schema validator would match
 *   anywhere in the value, while its prose and examples mean the whole value (its CPF pattern, `/^\d{11}$/`, even
 *   carries regex delimiters);
 * - objects admit only the properties the document defines (`additionalProperties: false`), and the document's
 *   `allOf` compositions are flattened to allow that: a misspelt field, which a real bank may silently ignore, is
 *   a violation here.
 */
import { VALOR_PATTERN } from "../money";

const valor = { type: "string", pattern: VALOR_PATTERN } as const;
const chave = { type: "string", maxLength: 77 } as const;
const int32 = { type: "integer", format: "int32" } as const;
const cpf = { type: "string", pattern: "^\\d{11}$" } as const;
const cnpj = { type: "string", pattern: "^[0-9A-Z]{14}$" } as const;
const nome = { type: "string", maxLength: 200 } as const;

/** `TxId` of an immediate charge: 26 to 35 letters and digits. */
const txidSchema = { type: "string", pattern: "^[a-zA-Z0-9]{26,35}$" } as const;
/** `EndToEndId`: 32 letters and digits. */
const endToEndIdSchema = { type: "string", pattern: "^[a-zA-Z0-9]{32}$" } as const;
/** `DevolucaoId`: 1 to 35 letters and digits. */
const devolucaoIdSchema = { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" } as const;

/** `devedor`: a person (`PessoaFisica`) or a company (`PessoaJuridica`), never both documents. */
const devedor = {
  oneOf: [
    { type: "object", required: ["cpf", "nome"], properties: { cpf, nome }, additionalProperties: false },
    { type: "object", required: ["cnpj", "nome"], properties: { cnpj, nome }, additionalProperties: false },
  ],
} as const;

/** `CobExpiracao`: lifetime in seconds from creation (the standard's default 86400). */
const calendario = { type: "object", properties: { expiracao: int32 }, additionalProperties: false } as const;

/** Withdrawal (`saque`) or change (`troco`) details of `CobValor.retirada`. */
function retiradaKind(agentModes: string[]) {
  return {
    type: "object",
    required: ["valor", "modalidadeAgente", "prestadorDoServicoDeSaque"],
    properties: {
      valor,
      modalidadeAlteracao: { ...int32, minimum: 0, maximum: 1 },
      modalidadeAgente: { type: "string", enum: agentModes },
      prestadorDoServicoDeSaque: { type: "string", pattern: "^[0-9A-Z]{8}$" },
    },
    additionalProperties: false,
  } as const;
}

const valorProperties = {
  original: valor,
  modalidadeAlteracao: { ...int32, minimum: 0, maximum: 1 },
  retirada: {
    oneOf: [
      {
        type: "object",
        required: ["saque"],
        properties: { saque: retiradaKind(["AGTEC", "AGTOT", "AGPSS"]) },
        additionalProperties: false,
      },
      {
        type: "object",
        required: ["troco"],
        properties: { troco: retiradaKind(["AGTEC", "AGTOT"]) },
        additionalProperties: false,
      },
    ],
  },
} as const;

/** `CobBase`'s fields and the location reference every charge body may carry. */
const cobCommonProperties = {
  calendario,
  devedor,
  loc: {
    type: "object",
    required: ["id"],
    properties: { id: { type: "integer", format: "int64" } },
    additionalProperties: false,
  },
  chave,
  solicitacaoPagador: { type: "string", maxLength: 140 },
  infoAdicionais: {
    type: "array",
    maxItems: 50,
    items: {
      type: "object",
      required: ["nome", "valor"],
      properties: { nome: { type: "string", maxLength: 50 }, valor: { type: "string", maxLength: 200 } },
      additionalProperties: false,
    },
  },
} as const;

/** Body of `PUT /cob/{txid}` (`CobSolicitada`). */
export const cobSolicitadaSchema = {
  type: "object",
  required: ["calendario", "valor", "chave"],
  properties: {
    ...cobCommonProperties,
    valor: { type: "object", required: ["original"], properties: valorProperties, additionalProperties: false },
  },
  additionalProperties: false,
} as const;

/** Body of `PATCH /cob/{txid}` (`CobRevisada`): every field optional, plus `status` for the payee's removal. */
export const cobRevisadaSchema = {
  type: "object",
  properties: {
    ...cobCommonProperties,
    valor: { type: "object", properties: valorProperties, additionalProperties: false },
    status: { type: "string", enum: ["REMOVIDA_PELO_USUARIO_RECEBEDOR"] },
  },
  additionalProperties: false,
} as const;

/** Body of `PUT /pix/{e2eid}/devolucao/{id}` (`DevolucaoSolicitada`). */
export const devolucaoSolicitadaSchema = {
  type: "object",
  required: ["valor"],
  properties: {
    valor,
    natureza: { type: "string", enum: ["ORIGINAL", "RETIRADA"] },
    descricao: { type: "string", maxLength: 140 },
  },
  additionalProperties: false,
} as const;

/** Body of `PUT /webhook/{chave}` (`WebhookSolicitado`). */
export const webhookSolicitadoSchema = {
  type: "object",
  required: ["webhookUrl"],
  properties: { webhookUrl: { type: "string", format: "uri" } },
  additionalProperties: false,
} as const;

/** Query of `GET /cob/{txid}`: an optional revision. */
export const cobQuerySchema = {
  type: "object",
  properties: { revisao: { ...int32, minimum: 0 } },
  additionalProperties: false,
} as const;

/** Query of `GET /pix`: the period (required), the filters, and the paging of the standard's `paginacao.*`. */
export const pixListQuerySchema = {
  type: "object",
  required: ["inicio", "fim"],
  properties: {
    inicio: { type: "string", format: "date-time" },
    fim: { type: "string", format: "date-time" },
    txid: { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" },
    txIdPresente: { type: "boolean" },
    devolucaoPresente: { type: "boolean" },
    cpf,
    cnpj,
    "paginacao.paginaAtual": { ...int32, minimum: 0 },
    "paginacao.itensPorPagina": { ...int32, minimum: 1, maximum: 1000 },
  },
  not: { required: ["cpf", "cnpj"] },
  additionalProperties: false,
} as const;

/** Path of `/cob/{txid}`. */
export const cobPathSchema = {
  type: "object",
  required: ["txid"],
  properties: { txid: txidSchema },
} as const;

/** Path of `/pix/{e2eid}`. */
export const pixPathSchema = {
  type: "object",
  required: ["e2eid"],
  properties: { e2eid: endToEndIdSchema },
} as const;

/** Path of `/pix/{e2eid}/devolucao/{id}`. */
export const devolucaoPathSchema = {
  type: "object",
  required: ["e2eid", "id"],
  properties: { e2eid: endToEndIdSchema, id: devolucaoIdSchema },
} as const;

/** Path of `/webhook/{chave}`. */
export const webhookPathSchema = {
  type: "object",
  required: ["chave"],
  properties: { chave },
} as const;
