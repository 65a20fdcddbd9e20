/**
 * JSON Schemas (draft 2020-12 keywords that ajv 8 reads) of the requests the emulator serves, written from the
 * standard's OpenAPI document (`bacen/pix-api` `openapi.yaml`, release 2.x: `CobSolicitada`, `CobRevisada`,
 * `CobVSolicitada`, `CobVRevisada`, the `lotecobv` body, `DevolucaoSolicitada`, `WebhookSolicitado`, the path
 * parameters `TxId`, `EndToEndId`, `DevolucaoId`, the batch's `id`, the webhook's `chave`, and the query parameters of
 * `GET /cob/{txid}`, `GET /cobv/{txid}` and `GET /pix`).
 *
 * Two deliberate differences from the document, both stricter:
 * - patterns are anchored (`^…$`): the document writes them bare, which a JSON Schema validator would match
 *   anywhere in the value, while its prose and examples mean the whole value (its CPF pattern, `/^\d{11}$/`, even
 *   carries regex delimiters);
 * - objects admit only the properties the document defines (`additionalProperties: false`), and the document's
 *   `allOf` compositions are flattened to allow that: a misspelt field, which a real bank may silently ignore, is
 *   a violation here;
 * - a `cobv`'s `desconto` ties its form to its modalidade as the document's prose does: dates
 *   (`descontoDataFixa`) for modalidades 1 and 2, a `valorPerc` for 3 to 6.
 */
import { VALOR_PATTERN } from "../money";

/** An amount in reais with two decimals (the standard's `valor` strings), shared with recurrence.schemas.ts. */
export const valor = { type: "string", pattern: VALOR_PATTERN } as const;
const chave = { type: "string", maxLength: 77 } as const;
const int32 = { type: "integer", format: "int32" } as const;
/** A CPF: 11 digits. */
export const cpf = { type: "string", pattern: "^\\d{11}$" } as const;
/** A CNPJ: 14 digits or capital letters. */
export const cnpj = { type: "string", pattern: "^[0-9A-Z]{14}$" } as const;
const nome = { type: "string", maxLength: 200 } as const;
/** A calendar date, `YYYY-MM-DD`. */
export const isoDate = { type: "string", format: "date" } as const;
export /** `TxId` of a charge: 26 to 35 letters and digits. */
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

/** `CobDataDeVencimento`: the due date and the calendar days it stays payable after. */
const calendarioCobv = {
  type: "object",
  required: ["dataDeVencimento"],
  properties: { dataDeVencimento: isoDate, validadeAposVencimento: int32 },
  additionalProperties: false,
} as const;

/** `DadosDevedor` of a `cobv`: the person or company, with an e-mail and an address (`DadosComplementaresPessoa`). */
const devedorCobv = {
  oneOf: (["cpf", "cnpj"] as const).map((document) => ({
    type: "object",
    required: [document, "nome"],
    properties: {
      [document]: document === "cpf" ? cpf : cnpj,
      nome,
      email: { type: "string" },
      logradouro: { type: "string", maxLength: 200 },
      cidade: { type: "string", maxLength: 200 },
      uf: { type: "string", maxLength: 2 },
      cep: { type: "string", maxLength: 8 },
    },
    additionalProperties: false,
  })),
} as const;

/** A `multa`, `juros` or `abatimento` of `CobVValor`: its modalidade (1 to `last`) and a decimal. */
function modalidadeValor(last: number) {
  return {
    type: "object",
    required: ["modalidade", "valorPerc"],
    properties: { modalidade: { ...int32, minimum: 1, maximum: last }, valorPerc: valor },
    additionalProperties: false,
  } as const;
}

/** `CobVValor`: the original amount and the fine, interest, reduction and discount. */
const valorCobvProperties = {
  original: valor,
  multa: modalidadeValor(2),
  juros: modalidadeValor(8),
  abatimento: modalidadeValor(2),
  desconto: {
    oneOf: [
      {
        type: "object",
        required: ["modalidade", "descontoDataFixa"],
        properties: {
          modalidade: { ...int32, minimum: 1, maximum: 2 },
          descontoDataFixa: {
            type: "array",
            minItems: 1,
            maxItems: 3,
            uniqueItems: true,
            items: {
              type: "object",
              required: ["data", "valorPerc"],
              properties: { data: isoDate, valorPerc: valor },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
      {
        type: "object",
        required: ["modalidade", "valorPerc"],
        properties: { modalidade: { ...int32, minimum: 3, maximum: 6 }, valorPerc: valor },
        additionalProperties: false,
      },
    ],
  },
} as const;

/** `CobVSolicitada`'s properties (`calendario`, `devedor`, `valor` and `CobBase`). */
const cobvProperties = {
  ...cobCommonProperties,
  calendario: calendarioCobv,
  devedor: devedorCobv,
  valor: { type: "object", required: ["original"], properties: valorCobvProperties, additionalProperties: false },
} as const;

/** Body of `PUT /cobv/{txid}` (`CobVSolicitada`). */
export const cobvSolicitadaSchema = {
  type: "object",
  required: ["calendario", "devedor", "valor", "chave"],
  properties: cobvProperties,
  additionalProperties: false,
} as const;

/** Body of `PATCH /cobv/{txid}` (`CobVRevisada`): every field optional, plus `status` for the payee's removal. */
export const cobvRevisadaSchema = {
  type: "object",
  properties: {
    ...cobvProperties,
    valor: { type: "object", properties: valorCobvProperties, additionalProperties: false },
    status: { type: "string", enum: ["REMOVIDA_PELO_USUARIO_RECEBEDOR"] },
  },
  additionalProperties: false,
} as const;

/** Body of `PUT /lotecobv/{id}` (`LoteCobVBody`): a description and the `cobv`s, each with its txid. */
export const loteCobvSchema = {
  type: "object",
  required: ["descricao", "cobsv"],
  properties: {
    descricao: { type: "string" },
    cobsv: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["txid", "calendario", "devedor", "valor", "chave"],
        properties: { txid: txidSchema, ...cobvProperties },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

/** Path of `/lotecobv/{id}`: the batch's numeric id (int64). */
export const loteCobvPathSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", pattern: "^[0-9]{1,18}$" } },
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

/**
 * Body of `PUT /webhook/{chave}` (`WebhookSolicitado`), and of `PUT /webhookrec` and `PUT /webhookcobr`
 * (`WebhookRecSolicitado`, `WebhookCobRSolicitado`), which the standard defines alike.
 */
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

/** Path of `/cob/{txid}` and `/cobv/{txid}`. */
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
