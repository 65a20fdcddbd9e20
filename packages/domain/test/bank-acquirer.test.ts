import {
  acquirerError,
  ApiError,
  bankIdOf,
  newId,
  ourIdOf,
  payoutItem,
  readPayoutOutcome,
  reporterAnomaly,
  reporterOf,
  TXID_PATTERN,
  txidForIdempotencyKey,
} from "../src";
import { PixApiError } from "@lm/pix-api";

const KEY = Buffer.alloc(32, 7);

describe("bank acquirer rules", () => {
  test("when the same idempotency key is used again by the same store and mode, then the txid is the same; anything else changes it", () => {
    const scope = { storeId: "sto_1", mode: "live" as const };

    const txid = txidForIdempotencyKey(KEY, scope, "order-1");

    expect(txid).toMatch(TXID_PATTERN);
    expect(txid).toHaveLength(26);
    expect(txidForIdempotencyKey(KEY, scope, "order-1")).toBe(txid);
    const others = [
      txidForIdempotencyKey(KEY, scope, "order-2"),
      txidForIdempotencyKey(KEY, { ...scope, storeId: "sto_2" }, "order-1"),
      txidForIdempotencyKey(KEY, { ...scope, mode: "test" }, "order-1"),
      txidForIdempotencyKey(Buffer.alloc(32, 8), scope, "order-1"),
    ];
    expect(new Set([txid, ...others]).size).toBe(5);
  });

  test("when our ids go to the bank, then their ULID is sent and the prefix comes back on the way in", () => {
    const refundId = newId("refund");
    const withdrawalId = newId("withdrawal");

    expect(bankIdOf(refundId)).toMatch(/^[0-9A-Z]{26}$/);
    expect(ourIdOf("refund", bankIdOf(refundId))).toBe(refundId);
    expect(ourIdOf("withdrawal", bankIdOf(withdrawalId))).toBe(withdrawalId);
    expect(ourIdOf("refund", refundId)).toBe(refundId);
    expect(ourIdOf("refund", "MED123")).toBe("rfd_MED123");
  });

  test("when the bank reads back a payout, then it becomes the notification item processing reads, with our withdrawal id", () => {
    const withdrawalId = newId("withdrawal");
    const item = payoutItem({
      idEnvio: bankIdOf(withdrawalId),
      e2eId: "E00000000202611261200abcdefghijk",
      valor: "10.13",
      horario: { solicitacao: "2026-11-26T12:00:00Z" },
      status: "NAO_REALIZADO",
      motivo: "Chave inexistente",
    });

    const outcome = readPayoutOutcome(Buffer.from(JSON.stringify({ pix: [item] })), "E00000000202611261200abcdefghijk");

    expect(outcome).toEqual({
      withdrawalId,
      endToEndId: "E00000000202611261200abcdefghijk",
      amount: 1013,
      status: "failed",
      reason: "Chave inexistente",
    });
  });

  test("when a bank fails, then merchants see acquirer_unavailable or acquirer_rejected with the bank's reason; other errors pass", () => {
    const unavailable = acquirerError(new PixApiError("unavailable", 503, "Service Unavailable"));
    const rejected = acquirerError(new PixApiError("rejected", 400, "Cobrança não encontrada"));
    const other = new Error("bug");

    expect(unavailable).toBeInstanceOf(ApiError);
    expect(unavailable).toMatchObject({ code: "acquirer_unavailable", status: 502, type: "acquirer_error" });
    expect(rejected).toMatchObject({ code: "acquirer_rejected", status: 502 });
    expect((rejected as ApiError).message).toContain("Cobrança não encontrada");
    expect(acquirerError(other)).toBe(other);
  });

  test("when payments settle, then the sandbox settles test charges, a bank the mode it serves, another acquirer live ones", () => {
    const modeOf = (acquirer_slug: string, acquirer_mode: "live" | "test" | null) =>
      reporterOf({ acquirer_id: "acq_1", acquirer_slug, acquirer_mode }).mode;
    expect(modeOf("sandbox", null)).toBe("test");
    expect(modeOf("homologacao", "test")).toBe("test");
    expect(modeOf("efi", "live")).toBe("live");
    expect(modeOf("signing-psp", null)).toBe("live");
  });

  test("when an acquirer reports on a row, then only the one holding its money may: the bank of its acquirer_id, the sandbox for none", () => {
    const bank = reporterOf({ acquirer_id: "acq_bank", acquirer_slug: "efi", acquirer_mode: "live" });
    const signer = reporterOf({ acquirer_id: "acq_signer", acquirer_slug: "signing-psp", acquirer_mode: null });
    const sandbox = reporterOf({ acquirer_id: "acq_sandbox", acquirer_slug: "sandbox", acquirer_mode: null });
    const liveAtBank = { mode: "live" as const, acquirer_id: "acq_bank" };

    expect(reporterAnomaly(bank, liveAtBank, "charge")).toBeNull();
    expect(reporterAnomaly(signer, liveAtBank, "charge")).toEqual({
      result: "acquirer_mismatch",
      error: "acquirer_mismatch: the charge is another acquirer's",
    });
    expect(reporterAnomaly(signer, { mode: "live", acquirer_id: null }, "refund")?.result).toBe("acquirer_mismatch");
    expect(reporterAnomaly(sandbox, { mode: "test", acquirer_id: null }, "withdrawal")).toBeNull();
    expect(reporterAnomaly(sandbox, { mode: "test", acquirer_id: "acq_bank" }, "charge")?.result).toBe(
      "acquirer_mismatch",
    );
    expect(reporterAnomaly(sandbox, liveAtBank, "charge")).toEqual({
      result: "mode_mismatch",
      error: "mode_mismatch: live charge",
    });
  });
});
