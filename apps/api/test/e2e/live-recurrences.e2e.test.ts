import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { BankEmulator } from "@lm/bank-emulator";
import { addMonths, registerBankWebhook, runRecurrence, saoPauloDate } from "@lm/domain";
import { useWebhookReceiver, waitUntil } from "@lm/testing";
import { reconcileLiveRecurrencesOfBanks } from "../../../worker/src/sweepers/live-recurrences";
import { useE2eTestContext } from "./support/e2e-harness";
import { opsOf, useLiveStack } from "./support/live-stack";
import type { EndpointOwner } from "../support/webhook-endpoints";
import type { MerchantClient } from "../support/merchant-client";
import { plusDays, recurrenceBody, TODAY } from "../support/recurrences";

/**
 * Pix Automático in live mode through a bank of the API Pix standard (DESIGN §14 "Live", §9), end to end: the API on
 * a real port, the worker, and the bank emulator playing the payer's bank. The recurrence is created at the bank, its
 * approval and each cycle's debit arrive as the bank's callbacks (`/rec`, `/cobr`), read back before anything changes.
 * Live mode runs on real time: the engine is driven with an explicit time, as the worker's sweep would run it on the
 * cycles' days. Every request the bank received must conform to the standard's schemas.
 */
describe("Pix Automático in live mode through an API Pix bank", () => {
  const ctx = useE2eTestContext({ ACQUIRER_TIMEOUT_MS: "2000" });
  const receiver = useWebhookReceiver();
  const stack = useLiveStack(ctx, receiver);
  let bank: BankEmulator;
  let server: http.Server;
  let owner: EndpointOwner;
  let live: MerchantClient;

  const ops = opsOf(ctx);
  const recurrence = async (id: string) => (await live.get(`/v1/recurrences/${id}`).expect(200)).body;
  const charge = async (id: string) => (await live.get(`/v1/transactions/${id}`).expect(200)).body;
  /** The bank's id (`idRec`) of recurrence `id`, as saved when the bank made it. */
  const bankRecurrenceId = async (id: string) =>
    (await ctx.db.recurrence.findUniqueOrThrow({ where: { id } })).bank_recurrence_id as string;
  /** A live recurrence created with `body` and approved by the payer at the bank: its id and the bank's. */
  const approvedRecurrence = async (body: Record<string, unknown>) => {
    const id = (await live.post("/v1/recurrences", body)).body.id as string;
    const idRec = await bankRecurrenceId(id);
    await bank.answerRecurrence(idRec, true);
    await waitUntil("the recurrence approved", async () => (await recurrence(id)).status === "approved");
    return { id, idRec };
  };

  beforeAll(() => {
    ({ bank, server, owner, live } = stack.current);
  });

  test("when an operator configures a bank with its receiving account and registers the webhooks, then the bank posts rec and cobr callbacks to us", async () => {
    const configured = await ops(
      "acquirer:configure",
      "rec-bank",
      ...["--profile", "bcb", "--api-url", bank.apiUrl, "--token-url", bank.tokenUrl],
      ...["--client-id", bank.client.clientId, "--client-secret-file", bank.client.files.clientSecret],
      ...["--cert-file", bank.client.files.cert, "--key-file", bank.client.files.key],
      ...["--ca-file", bank.client.files.ca, "--pix-key", bank.pixKey],
      ...["--account", "0001/1234567", "--account-type", "checking"],
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const registered = await registerBankWebhook(
      { ...ctx.deps, config: { ...ctx.config, publicBaseUrl: url } },
      "rec-bank",
    );
    const activated = await ops("acquirer:activate", "rec-bank", "--mode", "live");

    expect([configured.exitCode, activated.exitCode]).toEqual([0, 0]);
    const row = await ctx.db.acquirer.findUniqueOrThrow({ where: { slug: "rec-bank" } });
    expect(row).toMatchObject({ account_branch: "0001", account_number: "1234567", account_type: "CORRENTE" });
    const puts = bank.requests().filter((request) => request.method === "PUT");
    expect(puts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/v2/webhookrec", body: { webhookUrl: registered } }),
        expect.objectContaining({ path: "/v2/webhookcobr", body: { webhookUrl: registered } }),
      ]),
    );
  });

  test("when a monthly recurrence is authorized by QR and three cycles run, one failing then paid on its retry, then the events and the ledger are exactly those of three paid cycles", async () => {
    const start = plusDays(TODAY, 7);
    const dues = [start, addMonths(start, 1), addMonths(start, 2)];
    const created = await live.post("/v1/recurrences", {
      ...recurrenceBody({ start_date: start, end_date: dues[2], retry_policy: "three_in_seven_days" }),
      contract: "live-assinatura-1",
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const row = await ctx.db.recurrence.findUniqueOrThrow({ where: { id } });
    const idRec = row.bank_recurrence_id as string;
    const [atBank] = bank.recurrences().filter((rec) => rec.idRec === idRec);
    expect(atBank).toMatchObject({
      status: "CRIADA",
      vinculo: { contrato: "live-assinatura-1", devedor: { cpf: "52998224725" } },
      calendario: { dataInicial: start, dataFinal: dues[2], periodicidade: "MENSAL" },
      valor: { valorRec: "49.90" },
      politicaRetentativa: "PERMITE_3R_7D",
    });
    expect(created.body.authorization.copy_paste).toContain(atBank?.loc?.location);

    // The payer approves in their bank: the callback is a hint, read back, and the recurrence is approved.
    await bank.answerRecurrence(idRec, true);
    await waitUntil("the recurrence approved", async () => (await recurrence(id)).status === "approved");

    // The engine on the days of the three cycles: each is written, then registered at the bank as it is sent.
    await runRecurrence(ctx.deps, id, new Date(`${dues[2]}T12:00:00.000Z`));
    const charges = await ctx.db.transaction.findMany({ where: { recurrence_id: id }, orderBy: { created_at: "asc" } });
    expect(charges.map((c) => [c.status, c.amount, c.acquirer_id])).toEqual(
      Array.from({ length: 3 }, () => ["pending", 4990, row.acquirer_id]),
    );
    const cycles = bank.cycles(idRec);
    expect(cycles.map((cobr) => [cobr.txid, cobr.calendario.dataDeVencimento, cobr.status])).toEqual(
      charges.map((c, i) => [c.txid, dues[i], "ATIVA"]),
    );
    expect(cycles[0]?.recebedor).toMatchObject({ agencia: "0001", conta: "1234567", tipoConta: "CORRENTE" });
    const [first, second, third] = charges as [(typeof charges)[0], (typeof charges)[0], (typeof charges)[0]];

    // Cycle 1 is debited on its due date.
    await bank.payCycle(first.txid);
    await waitUntil("cycle 1 paid", async () => (await charge(first.id)).status === "paid");

    // Cycle 2's debit fails: we ask the bank for a retry, which the payer's bank then pays.
    await bank.failCycle(second.txid);
    await waitUntil("the retry asked", () => bank.cycles(idRec)[1]?.tentativas?.length === 2);
    const retry = bank.cycles(idRec)[1]?.tentativas?.[1];
    expect(retry).toMatchObject({ tipo: "NTAG", status: "AGENDADA", dataLiquidacao: plusDays(dues[1] as string, 1) });
    expect((await charge(second.id)).status).toBe("pending");
    await bank.payCycle(second.txid);
    await waitUntil("cycle 2 paid", async () => (await charge(second.id)).status === "paid");

    await bank.payCycle(third.txid);
    await waitUntil("cycle 3 paid", async () => (await charge(third.id)).status === "paid");

    const events = await ctx.db.event.findMany({ where: { store_id: owner.storeId, mode: "live" } });
    const subjects = new Set([id, ...charges.map((c) => c.id)]);
    const ofThis = events.filter((event) => subjects.has((event.data as { id: string }).id));
    expect(ofThis.map((event) => event.type).sort()).toEqual([
      "recurrence.approved",
      "recurrence.created",
      "transaction.created",
      "transaction.created",
      "transaction.created",
      "transaction.paid",
      "transaction.paid",
      "transaction.paid",
    ]);
    const credits = await ctx.db.balanceTransaction.findMany({
      where: { type: "payment", source_id: { in: charges.map((c) => c.id) } },
    });
    expect(credits.map((credit) => [credit.source_id, credit.amount]).sort()).toEqual(
      charges.map((c) => [c.id, 4990]).sort(),
    );
    // The engine, run again on the last cycle's day as the worker's sweep would, closes the paid cycles: each counts
    // the debits its bank tried, the retried one two.
    await runRecurrence(ctx.deps, id, new Date(`${dues[2]}T12:00:00.000Z`));
    const cycleRows = await ctx.db.recurrenceCycle.findMany({
      where: { recurrence_id: id },
      orderBy: { due_date: "asc" },
    });
    expect(cycleRows.map((cycle) => [cycle.attempts, cycle.next_attempt_at])).toEqual([
      [1, null],
      [2, null],
      [1, null],
    ]);
    expect((await recurrence(id)).next_due_date).toBeNull();
    // The callbacks were only hints: each recurrence and charge was read back from the bank.
    const reads = bank.requests().filter((request) => request.method === "GET");
    expect(reads.some((request) => request.path === `/v2/rec/${idRec}`)).toBe(true);
    expect(reads.filter((request) => request.path.startsWith("/v2/cobr/")).length).toBeGreaterThanOrEqual(4);
    expect(saoPauloDate(new Date())).toBe(TODAY);
  });

  test("when a live recurrence is created with its first payment, then the bank's QR code pays the cob and authorizes (journey 3), and the approval settles the payment", async () => {
    const created = await live.post(
      "/v1/recurrences",
      recurrenceBody({ contract: "live-assinatura-4", journey: "qr_with_first_payment", first_payment_amount: 1990 }),
    );
    expect(created.status).toBe(201);
    const first = created.body.first_payment_transaction_id as string;
    const { txid } = await charge(first);
    const idRec = await bankRecurrenceId(created.body.id);
    const atBank = bank.recurrences().find((rec) => rec.idRec === idRec);
    expect(atBank?.ativacao).toEqual({ tipoJornada: "AGUARDANDO_DEFINICAO", dadosJornada: { txid } });
    expect(created.body.authorization.copy_paste).toContain(bank.charge(txid)?.location as string);
    expect(created.body.authorization.copy_paste).toContain(atBank?.loc?.location);

    await bank.answerRecurrence(idRec, true);

    await waitUntil("the recurrence approved", async () => (await recurrence(created.body.id)).status === "approved");
    await waitUntil("the first payment paid", async () => (await charge(first)).status === "paid");
    expect(bank.recurrences().find((rec) => rec.idRec === idRec)?.ativacao?.tipoJornada).toBe("JORNADA_3");
  });

  test("when a live recurrence is pushed to the payer's bank, then a solicrec is sent to their account and there is no QR code", async () => {
    const created = await live.post(
      "/v1/recurrences",
      recurrenceBody({
        contract: "live-assinatura-5",
        journey: "push",
        payer_account: { ispb: "99990001", branch: "0001", number: "998877" },
      }),
    );

    expect(created.status).toBe(201);
    expect(created.body.authorization).toBeNull();
    const idRec = await bankRecurrenceId(created.body.id);
    expect(bank.recurrences().find((rec) => rec.idRec === idRec)?.solicitacao).toEqual([
      expect.objectContaining({
        status: "ENVIADA",
        destinatario: { ispbParticipante: "99990001", agencia: "0001", conta: "998877", cpf: "52998224725" },
      }),
    ]);
  });

  test("when the merchant cancels a live cycle, then its cobr is withdrawn at the bank; when the payer then cancels the recurrence in their bank, then it is canceled by the payer with its other cycle", async () => {
    const start = plusDays(TODAY, 3);
    const { id, idRec } = await approvedRecurrence(
      recurrenceBody({ contract: "live-assinatura-6", start_date: start, end_date: addMonths(start, 1) }),
    );
    await runRecurrence(ctx.deps, id, new Date(`${addMonths(start, 1)}T12:00:00.000Z`));
    const [first, second] = await ctx.db.transaction.findMany({
      where: { recurrence_id: id },
      orderBy: { created_at: "asc" },
    });

    const canceled = await live.post(`/v1/transactions/${first?.id}/cancel`, {});
    await bank.cancelRecurrenceByPayer(idRec);
    await waitUntil("the recurrence canceled", async () => (await recurrence(id)).status === "canceled");

    expect(canceled.body.status).toBe("canceled");
    expect(bank.cycles(idRec).map((cobr) => [cobr.txid, cobr.status])).toEqual([
      [first?.txid, "CANCELADA"],
      [second?.txid, "CANCELADA"],
    ]);
    expect(bank.cycles(idRec)[0]?.encerramento?.cancelamento?.solicitante).toBe("USUARIO_RECEBEDOR");
    expect(await recurrence(id)).toMatchObject({ status: "canceled", canceled_by: "payer" });
    expect((await charge(second?.id as string)).status).toBe("canceled");
  });

  test("when the merchant cancels a live recurrence, then it is canceled at the bank first", async () => {
    const created = await live.post("/v1/recurrences", recurrenceBody({ contract: "live-assinatura-2" }));
    const idRec = await bankRecurrenceId(created.body.id);

    const canceled = await live.post(`/v1/recurrences/${created.body.id}/cancel`, {});

    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: "canceled", canceled_by: "merchant" });
    expect(bank.recurrences().find((rec) => rec.idRec === idRec)).toMatchObject({
      status: "CANCELADA",
      encerramento: { cancelamento: { solicitante: "USUARIO_RECEBEDOR" } },
    });
  });

  test("when the payer rejects a live recurrence in their bank, then it is rejected here with recurrence.rejected", async () => {
    const created = await live.post("/v1/recurrences", recurrenceBody({ contract: "live-assinatura-3" }));
    const idRec = await bankRecurrenceId(created.body.id);

    await bank.answerRecurrence(idRec, false);

    await waitUntil("the recurrence rejected", async () => (await recurrence(created.body.id)).status === "rejected");
    const types = (await ctx.db.event.findMany({ where: { store_id: owner.storeId, mode: "live" } }))
      .filter((event) => (event.data as { id: string }).id === created.body.id)
      .map((event) => event.type);
    expect(types.sort()).toEqual(["recurrence.created", "recurrence.rejected"]);
  });

  test("when the bank created the rec but its next reply was lost and the merchant retries with the same Idempotency-Key, then the bank holds one rec and we one recurrence, and the reply is the one a first success gives", async () => {
    const body = recurrenceBody({ contract: "live-retomada-1" });
    const recsBefore = bank.recurrences().length;
    // POST /locrec and POST /rec succeed; the read of the rec's QR code (GET /rec/{idRec}) fails: the run stops there.
    bank.failNext(1, 503, { path: "/v2/rec/" });
    const failed = await live.post("/v1/recurrences", body).set("Idempotency-Key", "retomada-1");
    expect(failed.status).toBe(502);
    expect(bank.recurrences().length).toBe(recsBefore + 1);
    const listed = await live.get("/v1/recurrences?limit=100").expect(200);
    expect(listed.body.data.map((r: { contract: string }) => r.contract)).not.toContain("live-retomada-1");

    const retried = await live.post("/v1/recurrences", body).set("Idempotency-Key", "retomada-1");

    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: "created", contract: "live-retomada-1" });
    expect(bank.recurrences().length).toBe(recsBefore + 1);
    const rows = await ctx.db.recurrence.findMany({ where: { contract: "live-retomada-1" } });
    expect(rows.map((row) => [row.id, row.registering])).toEqual([[retried.body.id, false]]);
    const atBank = bank.recurrences().filter((rec) => rec.vinculo.contrato === "live-retomada-1");
    expect(atBank.map((rec) => rec.idRec)).toEqual([rows[0]?.bank_recurrence_id]);
    expect(retried.body.authorization.copy_paste).toContain(atBank[0]?.loc?.location);
    const replayed = await live.post("/v1/recurrences", body).set("Idempotency-Key", "retomada-1");
    expect(replayed.body).toEqual(retried.body);
    const events = await ctx.db.event.findMany({ where: { store_id: owner.storeId, mode: "live" } });
    expect(events.filter((event) => (event.data as { id: string }).id === retried.body.id).map((e) => e.type)).toEqual([
      "recurrence.created",
    ]);
  });

  test("when a push request was not sent and the merchant retries with the same Idempotency-Key, then the bank holds one rec with one solicrec", async () => {
    const body = recurrenceBody({
      contract: "live-retomada-2",
      journey: "push",
      payer_account: { ispb: "99990001", branch: "0001", number: "112233" },
    });
    bank.failNext(1, 503, { path: "/v2/solicrec" });
    const failed = await live.post("/v1/recurrences", body).set("Idempotency-Key", "retomada-2");
    expect(failed.status).toBe(502);

    const retried = await live.post("/v1/recurrences", body).set("Idempotency-Key", "retomada-2");

    expect(retried.status).toBe(201);
    const atBank = bank.recurrences().filter((rec) => rec.vinculo.contrato === "live-retomada-2");
    expect(atBank.map((rec) => (rec.solicitacao ?? []).length)).toEqual([1]);
    expect(await ctx.db.recurrence.count({ where: { contract: "live-retomada-2" } })).toBe(1);
  });

  test("when the bank refuses a live recurrence, then the merchant gets the bank's error and nothing of it is left", async () => {
    bank.failNext(5, 422, { path: "/v2/rec" });

    const refused = await live.post("/v1/recurrences", recurrenceBody({ contract: "live-recusada-1" }));

    bank.failNext(0);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("acquirer_rejected");
    expect(await ctx.db.recurrence.count({ where: { contract: "live-recusada-1" } })).toBe(0);
  });

  test("when the payer approves in their bank and the callback is lost, then the reconciler's sweep reads it back and approves the recurrence once", async () => {
    const created = await live.post("/v1/recurrences", recurrenceBody({ contract: "live-sem-aviso-1" }));
    const id = created.body.id as string;
    const idRec = await bankRecurrenceId(id);
    await bank.answerRecurrence(idRec, true, { callback: "drop" });
    expect((await recurrence(id)).status).toBe("created");

    await reconcileLiveRecurrencesOfBanks(ctx.deps);
    await waitUntil("the recurrence approved", async () => (await recurrence(id)).status === "approved");
    await reconcileLiveRecurrencesOfBanks(ctx.deps);

    const types = (await ctx.db.event.findMany({ where: { store_id: owner.storeId, mode: "live" } }))
      .filter((event) => (event.data as { id: string }).id === id)
      .map((event) => event.type);
    expect(types.sort()).toEqual(["recurrence.approved", "recurrence.created"]);
    const reports = await ctx.db.inboxItem.findMany({ where: { event_type: "rec", end_to_end_id: idRec } });
    expect(reports.map((item) => [item.source, item.error])).toEqual([["reconciliation", null]]);
  });

  test("when the payer's bank pays a cycle and the callback is lost, then the reconciler's sweep after its due date settles it once", async () => {
    const start = plusDays(TODAY, 3);
    const { id } = await approvedRecurrence(recurrenceBody({ contract: "live-sem-aviso-2", start_date: start }));
    await runRecurrence(ctx.deps, id, new Date(`${start}T12:00:00.000Z`));
    const [cycle] = await ctx.db.transaction.findMany({ where: { recurrence_id: id } });
    const txid = cycle?.txid as string;
    await bank.payCycle(txid, { callback: "drop" });
    const afterDue = { ...ctx.deps, now: () => new Date(`${start}T20:00:00.000Z`) };

    await reconcileLiveRecurrencesOfBanks(afterDue);
    await waitUntil("the cycle paid", async () => (await charge(cycle?.id as string)).status === "paid");
    await reconcileLiveRecurrencesOfBanks(afterDue);

    const credits = await ctx.db.balanceTransaction.findMany({ where: { type: "payment", source_id: cycle?.id } });
    expect(credits.map((credit) => credit.amount)).toEqual([4990]);
    const paid = (await ctx.db.event.findMany({ where: { store_id: owner.storeId, type: "transaction.paid" } })).filter(
      (event) => (event.data as { id: string }).id === cycle?.id,
    );
    expect(paid).toHaveLength(1);
    const reports = await ctx.db.inboxItem.findMany({ where: { event_type: "cobr", end_to_end_id: txid } });
    expect(reports.map((item) => item.source)).toEqual(["reconciliation"]);
  });

  test("when the bank refuses a cycle's charge, then each refused cycle fails once with transaction.failed and rejected_by_acquirer and the recurrence goes on to its next cycle; when the bank is down, then the cycle waits for it", async () => {
    // Its first cycle is sent after today: the engine's run after the approval sends nothing yet.
    const start = plusDays(TODAY, 10);
    const dues = [start, addMonths(start, 1)];
    // The emulator refuses a cycle charge whose amount ends in 13.
    const { id, idRec } = await approvedRecurrence(
      recurrenceBody({ contract: "live-recusada-2", start_date: start, end_date: dues[1], amount: 4913 }),
    );

    // The bank down: the first cycle is written but not sent, and stays scheduled for the next run.
    bank.failNext(50, 503, { path: "/v2/cobr/" });
    const down = await runRecurrence(ctx.deps, id, new Date(`${start}T12:00:00.000Z`)).catch((err: unknown) => err);
    bank.failNext(0);
    expect(down).toMatchObject({ code: "acquirer_unavailable" });
    const [waiting] = await ctx.db.transaction.findMany({ where: { recurrence_id: id } });
    expect(waiting?.status).toBe("scheduled");

    await runRecurrence(ctx.deps, id, new Date(`${dues[1]}T12:00:00.000Z`));
    await runRecurrence(ctx.deps, id, new Date(`${dues[1]}T12:00:00.000Z`));

    const charges = await ctx.db.transaction.findMany({ where: { recurrence_id: id }, orderBy: { created_at: "asc" } });
    expect(charges.map((c) => [c.status, c.failure_reason])).toEqual([
      ["failed", "rejected_by_acquirer"],
      ["failed", "rejected_by_acquirer"],
    ]);
    expect(bank.cycles(idRec)).toEqual([]);
    expect(await charge(charges[0]?.id as string)).toMatchObject({
      status: "failed",
      failure_reason: "rejected_by_acquirer",
    });
    const failed = (
      await ctx.db.event.findMany({ where: { store_id: owner.storeId, type: "transaction.failed" } })
    ).filter((event) => charges.some((c) => c.id === (event.data as { id: string }).id));
    expect(failed).toHaveLength(2);
    const cycles = await ctx.db.recurrenceCycle.findMany({ where: { recurrence_id: id } });
    expect(cycles.map((cycle) => cycle.next_attempt_at)).toEqual([null, null]);
  });

  test("when a cycle's cobr is in flight at the bank, then the recurrence is not locked meanwhile", async () => {
    // Its first cycle is sent after today: the engine's run after the approval sends nothing yet.
    const start = plusDays(TODAY, 10);
    const { id, idRec } = await approvedRecurrence(recurrenceBody({ contract: "live-sem-trava-1", start_date: start }));
    const before = bank.requests().length;
    // The PUT /cobr is never answered: the engine waits for it until the acquirer timeout.
    bank.hangNext(1);
    const run = runRecurrence(ctx.deps, id, new Date(`${start}T12:00:00.000Z`)).catch((err: unknown) => err);
    await waitUntil("the cobr sent", () =>
      bank
        .requests()
        .slice(before)
        .some((request) => request.method === "PUT" && request.path.startsWith("/v2/cobr/")),
    );

    // NOWAIT fails at once (55P03) when another transaction holds the row's lock.
    const locked = await ctx.db.$transaction(
      (tx) => tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM recurrences WHERE id = ${id} FOR UPDATE NOWAIT`,
    );

    expect(locked).toEqual([{ id }]);
    expect(await run).toMatchObject({ code: "acquirer_unavailable" });
    // The outage is retried by the next run: the cycle is registered once.
    await runRecurrence(ctx.deps, id, new Date(`${start}T12:00:00.000Z`));
    expect(bank.cycles(idRec).map((cobr) => cobr.status)).toEqual(["ATIVA"]);
  });

  test("when the payer's bank refuses a push request after the bank made the rec, then the rec is canceled there and nothing is left here", async () => {
    bank.failNext(1, 422, { path: "/v2/solicrec" });

    const refused = await live.post(
      "/v1/recurrences",
      recurrenceBody({
        contract: "live-recusada-3",
        journey: "push",
        payer_account: { ispb: "99990001", branch: "0001", number: "445566" },
      }),
    );

    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("acquirer_rejected");
    const atBank = bank.recurrences().filter((rec) => rec.vinculo.contrato === "live-recusada-3");
    expect(atBank.map((rec) => rec.status)).toEqual(["CANCELADA"]);
    expect(await ctx.db.recurrence.count({ where: { contract: "live-recusada-3" } })).toBe(0);
  });

  test("when a creation cut short by an outage is never retried, then once its key has expired the reconciler cancels its rec at the bank and deletes the row", async () => {
    bank.failNext(1, 503, { path: "/v2/rec/" });
    const failed = await live
      .post("/v1/recurrences", recurrenceBody({ contract: "live-abandonada-1" }))
      .set("Idempotency-Key", "abandonada-1");
    expect(failed.status).toBe(502);
    const [atBank] = bank.recurrences().filter((rec) => rec.vinculo.contrato === "live-abandonada-1");

    // A retry may still come while the key is kept: the row stays.
    await reconcileLiveRecurrencesOfBanks(ctx.deps);
    expect(await ctx.db.recurrence.count({ where: { contract: "live-abandonada-1", registering: true } })).toBe(1);
    const dayAfter = { ...ctx.deps, now: () => new Date(Date.now() + 25 * 3_600_000) };
    await reconcileLiveRecurrencesOfBanks(dayAfter);

    expect(await ctx.db.recurrence.count({ where: { contract: "live-abandonada-1" } })).toBe(0);
    expect(bank.recurrences().find((rec) => rec.idRec === atBank?.idRec)?.status).toBe("CANCELADA");
  });
});
