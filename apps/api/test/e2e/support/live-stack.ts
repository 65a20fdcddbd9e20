/**
 * Live mode end to end for a test file (DESIGN §9): the bank emulator (not yet configured: each file configures it
 * through `npm run ops` as an operator would), the API listening on a real port, a seller with approved KYC, its live
 * merchant client and a live endpoint at the receiver's `/live`. After each test, every request the bank received must
 * have conformed to the standard's schemas.
 */
import http from "node:http";
import { startBankEmulator, type BankEmulator } from "@lm/bank-emulator";
import { setSellerKyc } from "@lm/domain";
import type { WebhookReceiver } from "@lm/testing";
import { runOps } from "../../../../ops/src/run";
import type { MerchantClient } from "../../support/merchant-client";
import {
  createEndpoint,
  endpointOwner,
  ownerMerchantClient,
  type EndpointOwner,
} from "../../support/webhook-endpoints";
import type { E2eTestContext } from "./e2e-harness";

/** What {@link useLiveStack} runs for a file. */
export interface LiveStack {
  bank: BankEmulator;
  /** The API, listening on 127.0.0.1. */
  server: http.Server;
  owner: EndpointOwner;
  /** The owner's store's live merchant client. */
  live: MerchantClient;
}

/**
 * Registers the hooks that start and stop the {@link LiveStack} of `ctx` (call after the harness and the receiver,
 * whose `beforeAll` must run first), and the schema check after each test.
 * @returns a holder of the running stack
 */
export function useLiveStack(ctx: E2eTestContext, receiver: { current: WebhookReceiver }): { current: LiveStack } {
  const holder = {} as { current: LiveStack };
  beforeAll(async () => {
    const bank = await startBankEmulator({ settleDelayMs: 20 });
    const server = http.createServer(ctx.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const owner = await endpointOwner(ctx);
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    const live = await ownerMerchantClient(ctx, owner, "live");
    await createEndpoint(owner, { url: `${receiver.current.url}/live`, mode: "live" });
    holder.current = { bank, server, owner, live };
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.current?.server.close(resolve));
    await holder.current?.bank.close();
  });
  afterEach(() => {
    expect(holder.current.bank.violations()).toEqual([]);
  });
  return holder;
}

/** `npm run ops -- <argv>` against `ctx`'s database and configuration, in this process. */
export function opsOf(ctx: E2eTestContext) {
  return (...argv: string[]) =>
    runOps(argv, { config: ctx.config, repos: ctx.deps.repos, now: () => new Date(), useCaseDeps: () => ctx.deps });
}
