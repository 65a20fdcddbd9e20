/**
 * Pix Automático's JSON as our client reads it (API Pix, `bacen/pix-api` openapi.yaml release 2.9, components
 * `RecCompleta`, `SolicRecCompleta`, `CobRCompleta`, `PayloadLocationRecCompleta`, and the callbacks' `RecNotification`
 * and `CobRNotification`). Field names are the wire's; every `valor` is the decimal string exactly as received (read
 * it with `centavosFromValor`); dates are `YYYY-MM-DD`, times RFC 3339 strings.
 */
import type { Pix, PixPerson } from "./types";

/** State of a recurrence at the bank (`RecStatus`). */
export type RecStatus = "CRIADA" | "APROVADA" | "REJEITADA" | "EXPIRADA" | "CANCELADA";

/** How often a recurrence charges (`RecBase.calendario.periodicidade`). */
export type RecPeriodicidade = "SEMANAL" | "MENSAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";

/** Whether failed cycles may be retried after the due date (`politicaRetentativa`): never, or 3 times in 7 days. */
export type RecRetryPolicy = "NAO_PERMITE" | "PERMITE_3R_7D";

/** Who ended a recurrence or a cycle charge (`encerramento.cancelamento.solicitante`). */
export type RecCancelRequester = "PSP_PAGADOR" | "USUARIO_PAGADOR" | "PSP_RECEBEDOR" | "USUARIO_RECEBEDOR";

/** How a recurrence or a cycle charge ended (`RecEncerramento`, `CobRAtualizacao.encerramento`). */
export interface RecEncerramento {
  rejeicao?: { codigo: string; descricao: string };
  cancelamento?: { solicitante: RecCancelRequester; codigo: string; descricao: string };
}

/** A location that serves a recurrence's payload (`PayloadLocationRecCompleta`), linked once a `rec` names it. */
export interface LocRec {
  /** The location's id (int64), which `POST /rec` names in `loc`. */
  id: number;
  /** The payload URL (no scheme). */
  location: string;
  criacao: string;
  /** The recurrence it is linked to, once one is. */
  idRec?: string;
}

/** A recurrence as `POST`, `PATCH` and `GET /rec/{idRec}` return it (`RecGerada` / `RecCompleta`). */
export interface Rec {
  /** The bank's id: 29 characters, `RR…` (retries allowed) or `RN…` (not). */
  idRec: string;
  vinculo: { contrato: string; objeto?: string; devedor: PixPerson };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: RecPeriodicidade };
  valor?: { valorRec?: string; valorMinimoRecebedor?: string };
  politicaRetentativa?: RecRetryPolicy;
  recebedor?: PixPerson & { convenio?: string };
  /** The payer's bank and document, once the payer answered (`DadosPagadorRec`). */
  pagador?: { ispbParticipante?: string; cpf?: string; cnpj?: string; codMun?: string };
  status: RecStatus;
  loc?: LocRec;
  atualizacao?: Array<{ status: RecStatus; data: string }>;
  encerramento?: RecEncerramento;
  /** The push requests sent for it (`solicitacao`). */
  solicitacao?: SolicRec[];
  ativacao?: {
    tipoJornada: "JORNADA_1" | "JORNADA_2" | "JORNADA_3" | "JORNADA_4" | "AGUARDANDO_DEFINICAO";
    dadosJornada?: { txid: string };
  };
  /**
   * The composite BR Code the payer scans (`GET /rec/{idRec}`, with `?txid=` the immediate charge's for journey 3),
   * once the recurrence (and the charge) has a location.
   */
  dadosQR?: { jornada?: "JORNADA_2" | "JORNADA_3" | "JORNADA_4"; pixCopiaECola?: string };
}

/** State of a push request (`SolicRecStatus`). */
export type SolicRecStatus = "CRIADA" | "ENVIADA" | "RECEBIDA" | "REJEITADA" | "ACEITA" | "EXPIRADA" | "CANCELADA";

/** A request for the payer's confirmation sent to their bank (`SolicRecCompleta`, the push journey). */
export interface SolicRec {
  /** The bank's id: 29 characters, `SC…`. */
  idSolicRec: string;
  idRec: string;
  calendario: { dataExpiracaoSolicitacao: string };
  destinatario: { ispbParticipante: string; agencia?: string; conta: string; cpf?: string; cnpj?: string };
  status: SolicRecStatus;
  atualizacao?: Array<{ status: SolicRecStatus; data: string }>;
}

/** State of a cycle charge (`CobRStatus`). */
export type CobRStatus = "CRIADA" | "ATIVA" | "CONCLUIDA" | "EXPIRADA" | "REJEITADA" | "CANCELADA";

/** State of one debit attempt of a cycle charge (`CobRTentativas.tentativas[].status`). */
export type CobRAttemptStatus = "SOLICITADA" | "AGENDADA" | "PAGA" | "CANCELADA" | "REJEITADA" | "EXPIRADA";

/** One debit attempt of a cycle charge: the first, scheduled (`AGND`), or a retry (`NTAG`, `RIFL`). */
export interface CobRTentativa {
  /** The day the payer's bank settles it. */
  dataLiquidacao: string;
  tipo: "AGND" | "NTAG" | "RIFL";
  status: CobRAttemptStatus;
  endToEndId: string;
  atualizacao?: Array<{ status: CobRAttemptStatus; data: string }>;
  rejeicao?: { codigo: string; descricao: string };
}

/** The receiving account a cycle charge names (`DadosBancariosRecebedor`). */
export interface CobRRecebedor {
  agencia?: string;
  conta: string;
  tipoConta: "CORRENTE" | "POUPANCA" | "PAGAMENTO";
}

/** A cycle charge as `PUT`, `PATCH` and `GET /cobr/{txid}` return it (`CobRGerada` / `CobRCompleta`). */
export interface CobR {
  idRec: string;
  txid: string;
  infoAdicional?: string;
  calendario: { criacao: string; dataDeVencimento: string };
  valor: { original: string };
  status: CobRStatus;
  politicaRetentativa?: RecRetryPolicy;
  ajusteDiaUtil?: boolean;
  recebedor?: Partial<CobRRecebedor> & { cnpj?: string; nome?: string };
  devedor?: { email?: string; logradouro?: string; cidade?: string; uf?: string; cep?: string };
  atualizacao?: Array<{ status: CobRStatus; data: string }>;
  encerramento?: RecEncerramento;
  tentativas?: CobRTentativa[];
  /** The payment received for it, once paid (`PixAutomatico`). */
  pix?: Pix[];
}
