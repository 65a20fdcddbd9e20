/**
 * Every router of the API, mounted in one place.
 */
import type { Express } from "express";
import type { AppDeps } from "../deps";
import { probesRouter } from "./probes/probes.router";
import { openapiRouter } from "./openapi/openapi.router";
import { docsRouter } from "./docs/docs.router";
import { metricsRouter } from "./metrics/metrics.router";
import { csrfProtection } from "../http/csrf";
import { createPanelRateLimits } from "../http/rate-limit";
import { accountLinksRouter } from "./auth/account-links.router";
import { authRouter } from "./auth/auth.router";
import { sessionsRouter } from "./sessions/sessions.router";
import { termsRouter } from "./terms/terms.router";
import { stepUpRouter } from "./step-up/step-up.router";
import { recoveryRouter } from "./two-factor/recovery.router";
import { twoFactorRouter } from "./two-factor/two-factor.router";
import { requireApiKey } from "../http/api-key-auth";
import { apiKeyRateLimit } from "../http/api-rate-limit";
import { requireRole, requireSession } from "../http/auth";
import { eventsRouter } from "./events/events.router";
import { opsInboxRouter } from "./ops-inbox/ops-inbox.router";
import { transactionsRouter } from "./transactions/transactions.router";
import { notificationsRouter } from "./notifications/notifications.router";
import { apiKeysRouter } from "./api-keys/api-keys.router";
import { postbackSecretRouter } from "./postback-secret/postback-secret.router";
import { eventTypesRouter } from "./event-types/event-types.router";
import { webhookDeliveriesRouter } from "./webhook-endpoints/webhook-deliveries.router";
import { webhookEndpointsRouter } from "./webhook-endpoints/webhook-endpoints.router";
import { merchantSellerRouter, panelSellerRouter } from "./seller/seller.router";
import { merchantBalanceRouter, panelBalanceRouter } from "./balance/balance.router";
import { refundsRouter, transactionRefundsRouter } from "./refunds/refunds.router";
import { payoutKeysRouter } from "./payout-keys/payout-keys.router";
import { merchantWithdrawalsRouter, opsWithdrawalsRouter, panelWithdrawalsRouter } from "./withdrawals/withdrawals.router";

/** Mounts the routers on `app`. */
export function mountRoutes(app: Express, deps: AppDeps): void {
  // The merchant API first: its requests are the busiest, and every router mounted without a path (the panel's,
  // all under /v1/me) would otherwise test each of its routes against them (a tenth of a read's CPU, issue 14).
  const merchant = [requireApiKey(deps), apiKeyRateLimit(deps)];
  app.use("/v1/transactions", ...merchant, transactionsRouter(deps), transactionRefundsRouter(deps));
  app.use("/v1/refunds", ...merchant, refundsRouter(deps));
  app.use("/v1/balance", ...merchant, merchantBalanceRouter(deps));
  app.use("/v1/seller", ...merchant, merchantSellerRouter(deps));
  app.use("/v1/withdrawals", ...merchant, merchantWithdrawalsRouter(deps));
  app.use("/v1/events", ...merchant, eventsRouter(deps));
  app.use(probesRouter(deps));
  app.use(openapiRouter(deps));
  app.use(docsRouter());
  // Off the public port unless a token guards it (metrics.router.ts); main.ts serves METRICS_PORT otherwise.
  if (deps.config.metricsToken !== undefined) app.use(metricsRouter(deps, deps.config.metricsToken));
  app.use("/v1/me", csrfProtection(deps.config));
  const panelLimits = createPanelRateLimits(deps.redis, deps.config.queuePrefix);
  app.use(authRouter(deps, panelLimits));
  app.use(accountLinksRouter(deps, panelLimits));
  app.use(sessionsRouter(deps));
  app.use(termsRouter(deps));
  app.use(twoFactorRouter(deps, panelLimits));
  app.use(recoveryRouter(deps, panelLimits));
  app.use(stepUpRouter(deps, panelLimits));
  app.use(notificationsRouter(deps));
  app.use(eventTypesRouter(deps));
  app.use(webhookEndpointsRouter(deps));
  app.use(webhookDeliveriesRouter(deps, panelLimits));
  app.use(panelSellerRouter(deps));
  app.use(panelBalanceRouter(deps));
  app.use(payoutKeysRouter(deps));
  app.use(panelWithdrawalsRouter(deps));
  app.use("/v1/ops/inbox", requireSession(deps), requireRole("ops"), opsInboxRouter(deps));
  app.use("/v1/ops/withdrawals", requireSession(deps), requireRole("ops"), opsWithdrawalsRouter(deps));
  app.use(apiKeysRouter(deps));
  app.use(postbackSecretRouter(deps));
}
