/**
 * JSON Schemas of Pix Automático's requests (API Pix 2.9: `RecSolicitada`, `RecRevisada`, `SolicRecSolicitada`,
 * `CobRSolicitada`, `CobRRevisada`, the path parameters `idRec`, `idSolicRec`, the location's `id`, the retry's
 * `data`, and the queries of `GET /rec/{idRec}` and `GET /rec`; the webhooks' bodies are standard.schemas.ts'
 * `WebhookSolicitado`), written from the standard's OpenAPI document with the same two stricter choices as
 * standard.schemas.ts, whose amounts, documents, dates and txids they share: anchored patterns, and only the properties
 * the document defines (its `allOf` compositions flattened). Also:
 * - the request schemas leave out what the bank fills (`idRec` of `RecSolicitada`, which `RecBase` lists as required
 *   but the bank assigns; `retentativa`, which `RecBase` requires but defines nowhere);
 * - a recurrence's `valor` carries `valorRec` or `valorMinimoRecebedor`, not both, as the document's prose says;
 * - `loc` of a `rec` is the location's integer id, as the document's `PayloadLocationRecId` and examples write it.
 */
import { cnpj, cpf, isoDate, txidSchema as txid, valor } from "./standard.schemas";

const ispb = { type: "string", pattern: "^[0-9A-Z]{8}$" } as const;
/** `RecId` and `SolicRecId`: 29 letters and digits. */
const recId = { type: "string", pattern: "^[a-zA-Z0-9]{29}$" } as const;
const locationId = { type: "integer", format: "int64", minimum: 1 } as const;

/** `PessoaFisicaRecorrencia` or `PessoaJuridicaRecorrencia`: a name (≤ 140) and one document. */
const devedorRecorrencia = {
  oneOf: [
    {
      type: "object",
      required: ["cpf", "nome"],
      properties: { cpf, nome: { type: "string", maxLength: 140 } },
      additionalProperties: false,
    },
    {
      type: "object",
      required: ["cnpj", "nome"],
      properties: { cnpj, nome: { type: "string", maxLength: 140 } },
      additionalProperties: false,
    },
  ],
} as const;

/** `RecAtivacaoSolicitada`: journey 3's immediate charge. */
const ativacaoSolicitada = {
  type: "object",
  properties: {
    dadosJornada: {
      type: "object",
      required: ["txid"],
      properties: { txid },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** Body of `POST /rec` (`RecSolicitada`). */
export const recSolicitadaSchema = {
  type: "object",
  required: ["vinculo", "calendario", "politicaRetentativa"],
  properties: {
    vinculo: {
      type: "object",
      required: ["contrato", "devedor"],
      properties: {
        objeto: { type: "string", maxLength: 35 },
        devedor: devedorRecorrencia,
        contrato: { type: "string", minLength: 1, maxLength: 35 },
      },
      additionalProperties: false,
    },
    calendario: {
      type: "object",
      required: ["dataInicial", "periodicidade"],
      properties: {
        dataInicial: isoDate,
        dataFinal: isoDate,
        periodicidade: { type: "string", enum: ["SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"] },
      },
      additionalProperties: false,
    },
    valor: {
      oneOf: [
        { type: "object", required: ["valorRec"], properties: { valorRec: valor }, additionalProperties: false },
        {
          type: "object",
          required: ["valorMinimoRecebedor"],
          properties: { valorMinimoRecebedor: valor },
          additionalProperties: false,
        },
      ],
    },
    recebedor: {
      type: "object",
      properties: { convenio: { type: "string", maxLength: 60 } },
      additionalProperties: false,
    },
    politicaRetentativa: { type: "string", enum: ["NAO_PERMITE", "PERMITE_3R_7D"] },
    loc: locationId,
    ativacao: ativacaoSolicitada,
  },
  additionalProperties: false,
} as const;

/** Body of `PATCH /rec/{idRec}` (`RecRevisada`). */
export const recRevisadaSchema = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["CANCELADA"] },
    vinculo: {
      type: "object",
      properties: {
        devedor: {
          type: "object",
          required: ["nome"],
          properties: { nome: { type: "string", maxLength: 140 } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    loc: locationId,
    calendario: { type: "object", properties: { dataInicial: isoDate }, additionalProperties: false },
    ativacao: ativacaoSolicitada,
  },
  additionalProperties: false,
} as const;

/** Body of `POST /solicrec` (`SolicRecSolicitada`): the recurrence, the request's expiry and the payer's account. */
export const solicRecSolicitadaSchema = {
  type: "object",
  required: ["idRec", "calendario", "destinatario"],
  properties: {
    idRec: recId,
    calendario: {
      type: "object",
      required: ["dataExpiracaoSolicitacao"],
      properties: { dataExpiracaoSolicitacao: { type: "string", format: "date-time" } },
      additionalProperties: false,
    },
    destinatario: {
      oneOf: (["cpf", "cnpj"] as const).map((document) => ({
        type: "object",
        required: ["conta", "ispbParticipante", document],
        properties: {
          conta: { type: "string", maxLength: 20 },
          ispbParticipante: ispb,
          agencia: { type: "string", maxLength: 4 },
          [document]: document === "cpf" ? cpf : cnpj,
        },
        additionalProperties: false,
      })),
    },
  },
  additionalProperties: false,
} as const;

/** Body of `PUT /cobr/{txid}` (`CobRSolicitada`). */
export const cobRSolicitadaSchema = {
  type: "object",
  required: ["idRec", "calendario", "valor", "recebedor", "ajusteDiaUtil"],
  properties: {
    idRec: recId,
    infoAdicional: { type: "string", maxLength: 140 },
    calendario: {
      type: "object",
      required: ["dataDeVencimento"],
      properties: { dataDeVencimento: isoDate },
      additionalProperties: false,
    },
    valor: { type: "object", required: ["original"], properties: { original: valor }, additionalProperties: false },
    ajusteDiaUtil: { type: "boolean" },
    recebedor: {
      type: "object",
      required: ["conta", "tipoConta"],
      properties: {
        conta: { type: "string", maxLength: 20 },
        tipoConta: { type: "string", enum: ["CORRENTE", "POUPANCA", "PAGAMENTO"] },
        agencia: { type: "string", maxLength: 4 },
      },
      additionalProperties: false,
    },
    devedor: {
      type: "object",
      properties: {
        email: { type: "string" },
        logradouro: { type: "string", maxLength: 200 },
        cidade: { type: "string", maxLength: 200 },
        uf: { type: "string", maxLength: 2 },
        cep: { type: "string", maxLength: 8 },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** Body of `PATCH /cobr/{txid}` (`CobRRevisada`): only the receiver's cancel. */
export const cobRRevisadaSchema = {
  type: "object",
  required: ["status"],
  properties: { status: { type: "string", enum: ["CANCELADA"] } },
  additionalProperties: false,
} as const;

/** Path of `/rec/{idRec}`. */
export const recPathSchema = { type: "object", required: ["idRec"], properties: { idRec: recId } } as const;

/** Query of `GET /rec/{idRec}`: journey 3's charge, for its composite BR Code. */
export const recQuerySchema = { type: "object", properties: { txid }, additionalProperties: false } as const;

/** Query of `GET /rec`: the period of creation (required), the debtor's document, the status and the paging. */
export const recListQuerySchema = {
  type: "object",
  required: ["inicio", "fim"],
  properties: {
    inicio: { type: "string", format: "date-time" },
    fim: { type: "string", format: "date-time" },
    cpf,
    cnpj,
    locationPresente: { type: "boolean" },
    status: { type: "string" },
    convenio: { type: "string", maxLength: 60 },
    "paginacao.paginaAtual": { type: "integer", format: "int32", minimum: 0 },
    "paginacao.itensPorPagina": { type: "integer", format: "int32", minimum: 1, maximum: 1000 },
  },
  not: { required: ["cpf", "cnpj"] },
  additionalProperties: false,
} as const;

/** Path of `/solicrec/{idSolicRec}`. */
export const solicRecPathSchema = {
  type: "object",
  required: ["idSolicRec"],
  properties: { idSolicRec: recId },
} as const;

/** Path of `/cobr/{txid}`. */
export const cobRPathSchema = { type: "object", required: ["txid"], properties: { txid } } as const;

/** Path of `/cobr/{txid}/retentativa/{data}`: the charge and the retry's day. */
export const cobRRetryPathSchema = {
  type: "object",
  required: ["txid", "data"],
  properties: { txid, data: isoDate },
} as const;

/** Path of `/locrec/{id}`: the location's integer id. */
export const locRecPathSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", pattern: "^[0-9]{1,18}$" } },
} as const;
