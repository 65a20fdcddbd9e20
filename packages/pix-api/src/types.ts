/**
 * The standard's JSON as our client reads it (API Pix, `bacen/pix-api` openapi.yaml release 2.x, components
 * `CobCompleta`, `Pix`, `Devolucao`, `Problema`), and Efí's payout reply. Field names are the wire's; every `valor` is
 * the decimal string exactly as received (read it with `centavosFromValor`); times are RFC 3339 strings.
 */

/** State of a charge's record (schema `CobrancaStatus`). */
export type CobStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP";

/** A person or company named on a charge or a payment (schemas `PessoaFisica` / `PessoaJuridica`). */
export interface PixPerson {
  nome: string;
  /** 11 digits. */
  cpf?: string;
  /** 14 characters. */
  cnpj?: string;
}

/** An immediate charge (`cob`) as `PUT`, `PATCH` and `GET /cob/{txid}` return it (`CobGerada` / `CobCompleta`). */
export interface Cob {
  txid: string;
  calendario: {
    /** When the bank created the charge. */
    criacao: string;
    /** Lifetime in seconds from `criacao`. */
    expiracao: number;
  };
  /** Starts at 0; grows by one on every change. */
  revisao: number;
  status: CobStatus;
  valor: { original: string; modalidadeAlteracao?: number };
  /** The receiving Pix key (DICT key). */
  chave: string;
  devedor?: PixPerson;
  loc?: { id: number; location?: string; tipoCob: "cob" | "cobv"; criacao?: string };
  /** The payload URL the BR Code points to (no scheme). */
  location?: string;
  /** The BR Code ("Pix copia e cola") of the charge. */
  pixCopiaECola?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: Array<{ nome: string; valor: string }>;
  /** Payments received for the charge (in `CobCompleta`). */
  pix?: Pix[];
}

/** A `multa`, `juros` or `abatimento`, and a per-day `desconto` (schema `CobVValor`): a modalidade and a decimal. */
export interface CobvModalidade {
  modalidade: number;
  /** `\d{1,10}\.\d{2}`: reais for a fixed value, a percentage otherwise. */
  valorPerc: string;
}

/** A `desconto` by date (modalidade 1 or 2) with its `descontoDataFixa` tiers (at most three). */
export interface CobvDescontoDataFixa {
  modalidade: 1 | 2;
  descontoDataFixa: { data: string; valorPerc: string }[];
}

/** The terms of a due-date charge as the standard writes them: `CobDataDeVencimento` and `CobVValor`. */
export interface CobvTerms {
  calendario: {
    /** `YYYY-MM-DD`. */
    dataDeVencimento: string;
    /** Calendar days the charge stays payable after its due date (the standard's default: 30). */
    validadeAposVencimento?: number;
  };
  valor: {
    original: string;
    multa?: CobvModalidade;
    juros?: CobvModalidade;
    abatimento?: CobvModalidade;
    desconto?: CobvModalidade | CobvDescontoDataFixa;
  };
}

/**
 * A due-date charge (`cobv`) as `PUT`, `PATCH` and `GET /cobv/{txid}` return it (`CobVGerada` / `CobVCompleta`):
 * the fields of a `cob` but its calendar and value, which are the terms'.
 */
export interface CobV extends Omit<Cob, "calendario" | "valor"> {
  calendario: CobvTerms["calendario"] & { criacao: string };
  valor: CobvTerms["valor"];
}

/** A batch of due-date charges as `GET /lotecobv/{id}` returns it (`LoteCobVConsultado`): each `cobv`'s outcome. */
export interface LoteCobV {
  id: number;
  descricao: string;
  criacao: string;
  cobsv: Array<{
    txid: string;
    /** `EM_PROCESSAMENTO` while the bank works on it; `CRIADA` once registered; `NEGADA` refused, with `problema`. */
    status: "EM_PROCESSAMENTO" | "CRIADA" | "NEGADA";
    problema?: Problem;
    criacao?: string;
  }>;
}

/**
 * What a received payment's `valor` is made of (schema `Pix.componentesValor`): for a due-date charge the original
 * and the fine, interest, reduction and discount the payer's bank applied, each `{valor}` a decimal string.
 */
export interface PixComponentesValor {
  original?: { valor: string };
  multa?: { valor: string };
  juros?: { valor: string };
  abatimento?: { valor: string };
  desconto?: { valor: string };
}

/** Why a devolução happened (schema `DevolucaoNatureza`); absent means `ORIGINAL`. */
export type DevolucaoNatureza = "ORIGINAL" | "RETIRADA" | "MED_OPERACIONAL" | "MED_FRAUDE" | "MED_PIX_AUTOMATICO";

/** A devolução (refund) of a received Pix (schema `Devolucao`). */
export interface Devolucao {
  /** Our id for it (`^[a-zA-Z0-9]{1,35}$`). */
  id: string;
  /** The return's identification in the Pix system (32 characters). */
  rtrId: string;
  valor: string;
  natureza?: DevolucaoNatureza;
  descricao?: string;
  horario: { solicitacao?: string; liquidacao?: string };
  status: "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";
  /** The bank's words on the status (e.g. why it was not made). */
  motivo?: string;
}

/**
 * A received payment (schema `Pix`). `pagador` is not in the standard's schema; acquirers add it and we keep it when
 * present.
 */
export interface Pix {
  /** End-to-end id (32 characters). */
  endToEndId: string;
  /** The charge it paid, when it paid one. */
  txid?: string;
  valor: string;
  chave?: string;
  /** When the receiving bank processed it. */
  horario: string;
  infoPagador?: string;
  /** How `valor` is made up, when the bank says (always for a due-date charge's payment). */
  componentesValor?: PixComponentesValor;
  pagador?: Partial<PixPerson>;
  devolucoes?: Devolucao[];
}

/**
 * A Pix sent by Efí's payout extension (not in the standard): the reply of `PUT /v3/gn/pix/{idEnvio}` and of
 * `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`.
 */
export interface PixPayout {
  /** Our id for it (`^[a-zA-Z0-9]{1,35}$`). */
  idEnvio: string;
  /** End-to-end id of the Pix sent. */
  e2eId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: "EM_PROCESSAMENTO" | "REALIZADO" | "NAO_REALIZADO";
  motivo?: string;
}

/** An error reply of the standard (RFC 7807 problem details, schema `Problema`). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  correlationId?: string;
  violacoes?: Array<{ razao?: string; propriedade?: string; valor?: string }>;
}
