/**
 * Pix payments as an acquirer notifies them (the BCB `pix` item, DESIGN §5), for the tests of the inbound path.
 */
import { sandboxEndToEndId } from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";

/** A fresh, well-formed end-to-end id (random suffix, so ids never repeat across test files). */
export function newEndToEndId(): string {
  return sandboxEndToEndId(new Date());
}

/** A notified payment item: its `endToEndId` is always a string; the other fields are whatever the test set. */
export type PixPaymentItem = { endToEndId: string } & Record<string, unknown>;

/**
 * The notified payment of charge `txn` (its `txid` and whole amount) by a payer with a CPF, made now; `extra`
 * overrides or adds fields (a wrong `valor`, a later `horario`, …).
 */
export function paymentOf(txn: { txid: string; amount: number }, extra: Record<string, unknown> = {}): PixPaymentItem {
  return {
    endToEndId: newEndToEndId(),
    txid: txn.txid,
    valor: valorFromCentavos(txn.amount),
    horario: new Date().toISOString(),
    pagador: { nome: "João Pagador", cpf: "39053344705" },
    ...extra,
  };
}
