/**
 * The emulated bank's moves over time: settling devoluções and payouts after a delay, paying charges and returning
 * money unasked (MED) on request, and posting the standard's callback (`{pix: [...]}` to the webhook URL + `/pix`)
 * after each. The routes and the programmatic API both act through here.
 */
import { noonInSaoPaulo, saoPauloDate } from "@lm/domain/src/due-dates";
import type { CallbackPoster } from "./callbacks";
import { newEndToEndId, newMedId, PAYER_BANK_ISPB } from "./ids";
import type { Payer, PayoutRecord, RefundRecord } from "./records";
import { RecurrenceBook } from "./recurrences";
import type { BankState } from "./state";
import { payoutCallbackItem, paymentJson } from "./wire";
import { valorFromCentavos } from "./money";

/** Whether a move posts its callback (`send`, the default) or loses it (`drop`), as a real notification can be. */
export type CallbackChoice = "send" | "drop";

/** The bank's scheduled and on-request moves. */
export class Bank {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Pix Automático: recurrences and their cycle charges, and the payer's bank's moves on them. */
  readonly recurrences: RecurrenceBook;

  constructor(
    readonly state: BankState,
    private readonly callbacks: CallbackPoster,
    private readonly settleDelayMs: number,
  ) {
    this.recurrences = new RecurrenceBook(state, callbacks, (txid) => this.payCharge(txid));
  }

  /** Posts `{pix: items}` to the registered webhook URL + `/pix`, if there is one; failures are logged only. */
  private async notify(items: unknown[]): Promise<void> {
    const url = this.state.webhookUrl();
    if (url !== null) await this.callbacks.notify(`${url}/pix`, { pix: items });
  }

  private later(action: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void action();
    }, this.settleDelayMs);
    this.timers.add(timer);
  }

  /**
   * `PUT /pix/{e2eid}/devolucao/{id}`: see {@link BankState.requestRefund}. A new devolução settles after the
   * settle delay, and its Pix (with every devolução) is then posted.
   */
  requestRefund(
    endToEndId: string,
    id: string,
    body: { valor: string; natureza?: string; descricao?: string },
  ): { refund: RefundRecord; created: boolean } {
    const result = this.state.requestRefund(endToEndId, id, body, new Date());
    if (result.created) {
      this.later(async () => {
        this.state.settleRefund(result.refund, new Date());
        await this.notify([paymentJson(this.state.payment(endToEndId))]);
      });
    }
    return result;
  }

  /**
   * Efí's `PUT /v3/gn/pix/{idEnvio}`: see {@link BankState.requestPayout}. A new payout settles after the settle
   * delay, and is then posted as Efí does.
   */
  requestPayout(
    idEnvio: string,
    body: { valor: string; pagador: { chave: string; infoPagador?: string }; favorecido: { chave: string } },
  ): { payout: PayoutRecord; created: boolean } {
    const result = this.state.requestPayout(idEnvio, body, new Date());
    if (result.created) {
      this.later(async () => {
        this.state.settlePayout(result.payout, new Date());
        await this.notify([payoutCallbackItem(result.payout)]);
      });
    }
    return result;
  }

  /**
   * Pays charge `txid` as a payer's bank would (see {@link BankState.receivePayment}) and, unless dropped, posts the
   * payment; resolves once the post has been answered (or failed).
   * @param options.date - the day of payment (`YYYY-MM-DD` in São Paulo; default today): a later day pays a due-date
   *   charge late, dated noon of that day
   * @throws Error when the charge cannot be paid and `force` is not set
   */
  async payCharge(
    txid: string,
    options: { amount?: number; payer?: Payer; callback?: CallbackChoice; force?: boolean; date?: string } = {},
  ): Promise<{ endToEndId: string }> {
    const now = new Date();
    const paidAt =
      options.date === undefined || options.date === saoPauloDate(now) ? now : noonInSaoPaulo(options.date);
    const payment = this.state.receivePayment(txid, options, paidAt);
    if (options.callback !== "drop") await this.notify([paymentJson(payment)]);
    return { endToEndId: payment.endToEndId };
  }

  /**
   * An unrequested devolução (MED) of `amount` centavos on the received Pix `endToEndId`, DEVOLVIDO at once, and
   * (unless dropped) the Pix posted with it.
   * @throws ProblemError 404 for an unknown Pix; Error for an amount that is not positive or exceeds what is left
   */
  async med(
    endToEndId: string,
    amount: number,
    options: { callback?: CallbackChoice } = {},
  ): Promise<{ id: string; rtrId: string }> {
    const refund = this.state.addMed(endToEndId, newMedId(), amount, new Date());
    if (options.callback !== "drop") await this.notify([paymentJson(this.state.payment(endToEndId))]);
    return { id: refund.id, rtrId: refund.rtrId };
  }

  /**
   * Posts a standard callback for a payment the bank never received (nothing is recorded in its books) to `url`,
   * or to the registered webhook URL + `/pix`, and returns the status the receiver answered.
   * @throws Error when no URL is given and no webhook is registered, or the receiver cannot be reached
   */
  async forgeCallback(item: { txid: string; amount: number; endToEndId?: string }, url?: string): Promise<number> {
    const registered = this.state.webhookUrl();
    const target = url ?? (registered === null ? null : `${registered}/pix`);
    if (target === null) throw new Error("no webhook is registered: give the url");
    const now = new Date();
    const forged = {
      endToEndId: item.endToEndId ?? newEndToEndId(PAYER_BANK_ISPB, now),
      txid: item.txid,
      valor: valorFromCentavos(item.amount),
      chave: this.state.pixKey,
      horario: now.toISOString(),
    };
    return this.callbacks.post(target, { pix: [forged] });
  }

  /** Cancels the settlements not yet due. */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
