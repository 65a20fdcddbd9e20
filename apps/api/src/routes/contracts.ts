/**
 * Every route contract of the API, by resource in alphabetical order (the reference groups them by tag). The OpenAPI document is
 * generated from this list (`npm run openapi`), and the routes test checks that the mounted routes are exactly these.
 */
import type { RouteContract } from "../http/contract";
import * as acquirers from "./acquirers/acquirers.contract";
import * as apiKeys from "./api-keys/api-keys.contract";
import * as auth from "./auth/auth.contract";
import * as balance from "./balance/balance.contract";
import * as dashboard from "./dashboard/dashboard.contract";
import * as disputes from "./disputes/disputes.contract";
import * as docs from "./docs/docs.contract";
import * as eventTypes from "./event-types/event-types.contract";
import * as events from "./events/events.contract";
import * as llms from "./llms/llms.contract";
import * as metrics from "./metrics/metrics.contract";
import * as notifications from "./notifications/notifications.contract";
import * as openapi from "./openapi/openapi.contract";
import * as opsInbox from "./ops-inbox/ops-inbox.contract";
import * as payoutKeys from "./payout-keys/payout-keys.contract";
import * as postbackSecret from "./postback-secret/postback-secret.contract";
import * as probes from "./probes/probes.contract";
import * as qrCodes from "./qr-codes/qr-codes.contract";
import * as recurrences from "./recurrences/recurrences.contract";
import * as refunds from "./refunds/refunds.contract";
import * as seller from "./seller/seller.contract";
import * as sessions from "./sessions/sessions.contract";
import * as stepUp from "./step-up/step-up.contract";
import * as terms from "./terms/terms.contract";
import * as testClocks from "./test-clocks/test-clocks.contract";
import * as transactionBatches from "./transaction-batches/transaction-batches.contract";
import * as transactions from "./transactions/transactions.contract";
import * as panelTransactions from "./transactions/panel-transactions.contract";
import * as twoFactor from "./two-factor/two-factor.contract";
import * as webhookEndpoints from "./webhook-endpoints/webhook-endpoints.contract";
import * as withdrawals from "./withdrawals/withdrawals.contract";

/** Whether an export of a contract module is a contract (the modules also export their request schemas). */
function isContract(value: unknown): value is RouteContract {
  return typeof value === "object" && value !== null && "operationId" in value && "method" in value;
}

/** Every contract, grouped by resource. */
export const ROUTE_CONTRACTS: RouteContract[] = [
  acquirers,
  apiKeys,
  auth,
  balance,
  dashboard,
  disputes,
  docs,
  eventTypes,
  events,
  llms,
  metrics,
  notifications,
  openapi,
  opsInbox,
  panelTransactions,
  payoutKeys,
  postbackSecret,
  probes,
  qrCodes,
  recurrences,
  refunds,
  seller,
  sessions,
  stepUp,
  terms,
  testClocks,
  transactionBatches,
  transactions,
  twoFactor,
  webhookEndpoints,
  withdrawals,
].flatMap((module) => Object.values(module).filter(isContract));
