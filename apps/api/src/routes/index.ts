/**
 * Every router of the API, mounted in one place.
 */
import cookieParser from "cookie-parser";
import type { Express } from "express";
import type { AppDeps } from "../deps";
import { acquirerNotificationsRouter } from "./acquirers/acquirer-notifications.router";
import { merchantDisputesRouter, panelDisputesRouter } from "./disputes/disputes.router";
import { probesRouter } from "./probes/probes.router";
import { openapiRouter } from "./openapi/openapi.router";
import { docsRouter } from "./docs/docs.router";
import { dashboardRouter } from "./dashboard/dashboard.router";
import { llmsRouter } from "./llms/llms.router";
import { metricsRouter } from "./metrics/metrics.router";
import { csrfProtection } from "../http/csrf";
import { createPanelRateLimits } from "../http/rate-limit";
import { accountLinksRouter } from "./auth/account-links.router";
import { authRouter } from "./auth/auth.router";
import { sessionsRouter } from "./sessions/sessions.router";
import { termsRouter } from "./terms/terms.router";
import { stepUpPrefsRouter, stepUpRouter } from "./step-up/step-up.router";
import { recoveryRouter } from "./two-factor/recovery.router";
import { twoFactorRouter } from "./two-factor/two-factor.router";
import { requireApiKey } from "../http/api-key-auth";
import { apiKeyRateLimit } from "../http/api-rate-limit";
import { requireRole, requireSession } from "../http/auth";
import { eventsRouter } from "./events/events.router";
import { opsInboxRouter } from "./ops-inbox/ops-inbox.router";
import { transactionsRouter } from "./transactions/transactions.router";
import { panelEventsRouter, panelTransactionsRouter } from "./transactions/panel-transactions.router";
import { qrCodesRouter } from "./qr-codes/qr-codes.router";
import { recurrencesRouter } from "./recurrences/recurrences.router";
import { testClocksRouter } from "./test-clocks/test-clocks.router";
import { transactionBatchesRouter } from "./transaction-batches/transaction-batches.router";
import { notificationsRouter } from "./notifications/notifications.router";
import { apiKeysRouter } from "./api-keys/api-keys.router";
import { postbackSecretRouter } from "./postback-secret/postback-secret.router";
import { eventTypesRouter } from "./event-types/event-types.router";
import { endpointDeliveriesRouter, webhookDeliveriesRouter } from "./webhook-endpoints/webhook-deliveries.router";
import { webhookEndpointsRouter } from "./webhook-endpoints/webhook-endpoints.router";
import { merchantSellerRouter, panelSellerRouter } from "./seller/seller.router";
import { merchantBalanceRouter, panelBalanceRouter } from "./balance/balance.router";
import { refundsRouter, transactionRefundsRouter } from "./refunds/refunds.router";
import { payoutKeysRouter } from "./payout-keys/payout-keys.router";
import {
  merchantWithdrawalsRouter,
  opsWithdrawalsRouter,
  panelWithdrawalsRouter,
} from "./withdrawals/withdrawals.router";

/**
 * Mounts the routers that read their own raw body (inbound notifications are stored whatever their body, DESIGN §5):
 * `app` calls it before the JSON body rules.
 */
export function mountRawBodyRoutes(app: Express, deps: AppDeps): void {
  app.use("/v1/acquirers", acquirerNotificationsRouter(deps));
}

/**
 * Mounts the other routers on `app`, after the JSON body rules. Every router declares paths relative to its mount
 * point and is mounted here with its prefix and the guards its routes share (panel session, role, API key and per-key
 * rate limit); a guard that differs between routes of one router (a step-up, a route's own rate limit) stays on the
 * route. Under a guarded prefix an unknown path answers the guard's refusal (401, 403) before the unknown-route 404.
 */
export function mountRoutes(app: Express, deps: AppDeps): void {
  // The merchant API first: its requests are the busiest, and would otherwise be tested against every prefix of the
  // panel's mounts before reaching theirs.
  const merchant = [requireApiKey(deps), apiKeyRateLimit(deps)];
  app.use("/v1/transactions", ...merchant, transactionsRouter(deps), transactionRefundsRouter(deps));
  app.use("/v1/qr-codes", ...merchant, qrCodesRouter(deps));
  app.use("/v1/transaction-batches", ...merchant, transactionBatchesRouter(deps));
  app.use("/v1/recurrences", ...merchant, recurrencesRouter(deps));
  app.use("/v1/test-clocks", ...merchant, testClocksRouter(deps));
  app.use("/v1/refunds", ...merchant, refundsRouter(deps));
  app.use("/v1/balance", ...merchant, merchantBalanceRouter(deps));
  app.use("/v1/seller", ...merchant, merchantSellerRouter(deps));
  app.use("/v1/withdrawals", ...merchant, merchantWithdrawalsRouter(deps));
  app.use("/v1/disputes", ...merchant, merchantDisputesRouter(deps));
  app.use("/v1/events", ...merchant, eventsRouter(deps));
  // Cookies only for what follows: the merchant API authenticates by key and never reads one.
  app.use(cookieParser());

  // Root-level documents and probes, unauthenticated.
  app.use(probesRouter(deps));
  app.use(openapiRouter(deps));
  app.use(docsRouter(deps));
  app.use(llmsRouter(deps));
  // The seller dashboard's pages and files: the panel's application, on this origin (DESIGN §15).
  app.use(dashboardRouter());
  // Off the public port unless a token guards it (metrics.router.ts); main.ts serves METRICS_PORT otherwise.
  if (deps.config.metricsToken !== undefined) app.use(metricsRouter(deps, deps.config.metricsToken));

  const session = requireSession(deps);
  const owner = [session, requireRole("owner")];
  const ops = [session, requireRole("ops")];
  const panelLimits = createPanelRateLimits(deps.redis, deps.config.queuePrefix);

  // The whole panel area, unknown paths and routes usable without a session included.
  app.use("/v1/me", csrfProtection(deps.config));
  app.use("/v1/me/auth", authRouter(deps, panelLimits), accountLinksRouter(deps, panelLimits));
  app.use("/v1/me/auth/two-factor", twoFactorRouter(deps, panelLimits));
  app.use("/v1/me/auth/two-factor/recovery", recoveryRouter(deps, panelLimits));
  app.use("/v1/me/auth/step-up", session, stepUpRouter(deps, panelLimits));
  app.use("/v1/me/security/step-up-prefs", session, stepUpPrefsRouter(deps));
  app.use("/v1/me/sessions", session, sessionsRouter(deps));
  app.use("/v1/me/terms", session, termsRouter(deps));
  app.use("/v1/me/notifications", session, notificationsRouter(deps));
  app.use("/v1/me/event-types", session, eventTypesRouter());
  app.use(
    "/v1/me/webhook-endpoints",
    session,
    webhookEndpointsRouter(deps),
    endpointDeliveriesRouter(deps, panelLimits),
  );
  app.use("/v1/me/webhook-deliveries", session, webhookDeliveriesRouter(deps, panelLimits));
  app.use("/v1/me/seller", session, panelSellerRouter(deps));
  app.use("/v1/me/balance", session, panelBalanceRouter(deps));
  app.use("/v1/me/payout-keys", session, payoutKeysRouter(deps));
  app.use("/v1/me/withdrawals", session, panelWithdrawalsRouter(deps));
  app.use("/v1/me/disputes", session, panelDisputesRouter(deps));
  app.use("/v1/me/transactions", session, panelTransactionsRouter(deps));
  app.use("/v1/me/events", session, panelEventsRouter(deps));
  app.use("/v1/me/api-keys", ...owner, apiKeysRouter(deps));
  app.use("/v1/me/postback-secret", ...owner, postbackSecretRouter(deps));

  app.use("/v1/ops/inbox", ...ops, opsInboxRouter(deps));
  app.use("/v1/ops/withdrawals", ...ops, opsWithdrawalsRouter(deps));
}
