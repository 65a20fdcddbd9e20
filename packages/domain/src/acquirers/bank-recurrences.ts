/**
 * Pix Automático through a bank of the API Pix standard (DESIGN §14 "Live"), as the acquirer port's
 * {@link BankRecurrences}: recurrences are the standard's `rec` (with a `locrec` for the QR journeys and a `solicrec`
 * for `push`), cycle charges its `cobr`, retries its `retentativa`. What the bank says is translated here into our
 * terms, so the recurrence engine never reads the standard's words.
 */
import type { Acquirer, RecurrenceInterval, RecurrenceRetryPolicy } from "@lm/db";
import {
  READ_BACK_WINDOW_MS,
  type CobR,
  type CobRRecebedor,
  type CreateRecurrenceInput,
  type PixApiClient,
  type Rec,
  type RecPeriodicidade,
} from "@lm/pix-api";
import { ApiError } from "../errors";
import type { BankRecurrences, CycleAtBank, RecurrenceAtBank } from "./acquirer-port";

/** Our intervals as the standard's `periodicidade`. */
const PERIODICITY: Record<RecurrenceInterval, RecPeriodicidade> = {
  weekly: "SEMANAL",
  monthly: "MENSAL",
  quarterly: "TRIMESTRAL",
  semiannual: "SEMESTRAL",
  annual: "ANUAL",
};

/** Our retry policies as the standard's `politicaRetentativa`. */
const RETRY_POLICY: Record<RecurrenceRetryPolicy, "NAO_PERMITE" | "PERMITE_3R_7D"> = {
  none: "NAO_PERMITE",
  three_in_seven_days: "PERMITE_3R_7D",
};

/** The standard's recurrence states, ours. */
const RECURRENCE_STATUS: Record<Rec["status"], RecurrenceAtBank["status"]> = {
  CRIADA: "created",
  APROVADA: "approved",
  REJEITADA: "rejected",
  EXPIRADA: "expired",
  CANCELADA: "canceled",
};

/** The account types `acquirer:configure --account-type` stores, as the standard writes them (`tipoConta`). */
export const ACCOUNT_TYPES = { checking: "CORRENTE", savings: "POUPANCA", payment: "PAGAMENTO" } as const;

/** The longest `vinculo.objeto` and `infoAdicional` the standard takes. */
const MAX_OBJECT_LENGTH = 35;
const MAX_INFO_LENGTH = 140;

/** `rec` in our terms: its state, and who canceled it (the payer or their bank, or the merchant's side). */
export function recurrenceAtBank(rec: Rec): RecurrenceAtBank {
  const requester = rec.encerramento?.cancelamento?.solicitante;
  const status = RECURRENCE_STATUS[rec.status];
  const byPayer = requester === "USUARIO_PAGADOR" || requester === "PSP_PAGADOR";
  return { status, canceledBy: status === "canceled" ? (byPayer ? "payer" : "merchant") : null };
}

/** `cobr` in our terms. */
export function cycleAtBank(cobr: CobR): CycleAtBank {
  const attempts = cobr.tentativas ?? [];
  const paid = cobr.status === "CONCLUIDA" ? (cobr.pix?.[0] ?? null) : null;
  const status: CycleAtBank["status"] =
    cobr.status === "CONCLUIDA"
      ? "paid"
      : cobr.status === "CANCELADA"
        ? "canceled"
        : cobr.status === "REJEITADA" || cobr.status === "EXPIRADA"
          ? "failed"
          : "active";
  const payment =
    paid === null ? null : { endToEndId: paid.endToEndId, txid: cobr.txid, valor: paid.valor, horario: paid.horario };
  return {
    status: status === "paid" && payment === null ? "active" : status,
    attempts: attempts.length,
    lastAttemptFailed: attempts.at(-1)?.status === "REJEITADA",
    payment,
  };
}

/**
 * The receiving account bank `acquirer`'s cycle charges name.
 * @throws ApiError `acquirer_not_configured` when `acquirer:configure` was not given `--account`
 */
function receivingAccount(acquirer: Acquirer): CobRRecebedor {
  const { account_branch: branch, account_number: number, account_type: type } = acquirer;
  if (number === null || type === null) {
    throw new ApiError(
      "acquirer_not_configured",
      `Acquirer ${acquirer.slug} has no receiving account for Pix Automático; configure it with --account and ` +
        "--account-type. Nothing was created.",
    );
  }
  return {
    ...(branch === null ? {} : { agencia: branch }),
    conta: number,
    tipoConta: type as CobRRecebedor["tipoConta"],
  };
}

/**
 * Bank `acquirer`'s Pix Automático over `client()`, each call's failure mapped by `atBank` (`acquirer_unavailable`,
 * `acquirer_rejected`).
 */
export function bankRecurrences(
  acquirer: Acquirer,
  client: () => PixApiClient,
  atBank: <T>(call: () => Promise<T>) => Promise<T>,
): BankRecurrences {
  /** The `idRec` linked to location `locationId`, or null. */
  const recurrenceAtLocation = async (locationId: number): Promise<string | null> =>
    (await client().getRecurrenceLocation(locationId))?.idRec ?? null;
  return {
    async createRecurrence(registration) {
      receivingAccount(acquirer);
      const { debtor, resumed } = registration;
      const qr = registration.journey !== "push";
      /**
       * The `idRec` an earlier run of this creation made at the bank, or null: the one linked to its location, or for
       * `push` the one the list filters find since the run began.
       */
      const createdBefore = async (input: CreateRecurrenceInput, since: Date): Promise<string | null> => {
        if (input.locationId !== undefined) return recurrenceAtLocation(input.locationId);
        const range = {
          from: new Date(since.getTime() - READ_BACK_WINDOW_MS),
          to: new Date(Date.now() + READ_BACK_WINDOW_MS),
        };
        return (await client().findRecurrence(input, range))?.idRec ?? null;
      };
      return atBank(async () => {
        let locationId = resumed?.locationId ?? null;
        if (qr && locationId === null) {
          locationId = (await client().createRecurrenceLocation()).id;
          await registration.record({ locationId });
        }
        const input: CreateRecurrenceInput = {
          contract: registration.contract,
          ...(registration.description === null
            ? {}
            : { object: registration.description.slice(0, MAX_OBJECT_LENGTH) }),
          debtor: { name: debtor.name, [debtor.document.kind]: debtor.document.digits },
          startDate: registration.startDate,
          ...(registration.endDate === null ? {} : { endDate: registration.endDate }),
          periodicity: PERIODICITY[registration.interval],
          ...(registration.amount === null
            ? { minimumAmount: registration.minimumAmount ?? 0 }
            : { amount: registration.amount }),
          retryPolicy: RETRY_POLICY[registration.retryPolicy],
          ...(locationId === null ? {} : { locationId }),
          ...(registration.firstPaymentTxid === null ? {} : { firstPaymentTxid: registration.firstPaymentTxid }),
        };
        let idRec = resumed?.bankRecurrenceId ?? null;
        if (idRec === null && resumed !== null) idRec = await createdBefore(input, resumed.since);
        if (idRec === null) {
          idRec = (await client().createRecurrence(input)).idRec;
          await registration.record({ bankRecurrenceId: idRec });
        }
        if (!qr) {
          const payer = registration.payerAccount;
          if (payer === null) throw new TypeError("a push recurrence is sent to the payer's account");
          const sent = resumed === null ? [] : ((await client().getRecurrence(idRec))?.solicitacao ?? []);
          if (!sent.some((request) => request.status !== "CANCELADA")) {
            await client().requestRecurrence({
              idRec,
              expiresAt: registration.expiresAt,
              payer: {
                ispb: payer.ispb,
                branch: payer.branch,
                account: payer.number,
                [debtor.document.kind]: debtor.document.digits,
              },
            });
          }
          return { bankRecurrenceId: idRec, brCode: null };
        }
        const read = await client().getRecurrence(idRec, registration.firstPaymentTxid ?? undefined);
        const brCode = read?.dadosQR?.pixCopiaECola;
        if (typeof brCode !== "string" || brCode === "") {
          throw new ApiError(
            "acquirer_rejected",
            "The acquirer created the recurrence without a QR code to authorize it.",
          );
        }
        return { bankRecurrenceId: idRec, brCode };
      });
    },
    async cancelRecurrence(bankRecurrenceId) {
      return recurrenceAtBank(await atBank(() => client().cancelRecurrence(bankRecurrenceId)));
    },
    recurrenceAtLocation,
    async readRecurrence(bankRecurrenceId) {
      const rec = await client().getRecurrence(bankRecurrenceId);
      return rec === null ? null : recurrenceAtBank(rec);
    },
    async registerCycle(cycle) {
      const account = receivingAccount(acquirer);
      await atBank(() =>
        client().registerCycleCharge({
          txid: cycle.txid,
          idRec: cycle.bankRecurrenceId,
          dueDate: cycle.dueDate,
          amount: cycle.amount,
          account,
          ...(cycle.description === null ? {} : { description: cycle.description.slice(0, MAX_INFO_LENGTH) }),
        }),
      );
    },
    async cancelCycle(txid) {
      const cobr = await atBank(() => client().cancelCycleCharge(txid));
      return cobr.status === "CONCLUIDA" ? "paid" : "canceled";
    },
    async readCycle(txid) {
      const cobr = await client().getCycleCharge(txid);
      return cobr === null ? null : cycleAtBank(cobr);
    },
    async retryCycle(txid, date) {
      await atBank(() => client().retryCycleCharge(txid, date));
    },
  };
}
