/**
 * The panel API's objects as the dashboard reads them: the schemas of the OpenAPI document (`npm run openapi`
 * generates them from the route contracts), so a field the API renames fails the dashboard's type check.
 */
import type { components } from "../../../cli/src/generated/merchant-api";

type Schemas = components["schemas"];

/** `live` or `test` (DESIGN §2 "Modes"). */
export type Mode = Schemas["Mode"];
export type ApiKey = Schemas["ApiKey"];
export type Balance = Schemas["Balance"];
export type BalanceTransaction = Schemas["BalanceTransaction"];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type CreatedWebhookEndpoint = Schemas["CreatedWebhookEndpoint"];
export type Dispute = Schemas["Dispute"];
export type ErrorEnvelope = Schemas["Error"];
export type EventEnvelope = Schemas["EventEnvelope"];
export type EventType = Schemas["EventType"];
export type InviteCheck = Schemas["InviteCheck"];
export type Notification = Schemas["Notification"];
export type PayoutKey = Schemas["PayoutKey"];
export type PostbackSecretInfo = Schemas["PostbackSecretInfo"];
export type Refund = Schemas["Refund"];
export type RotatedApiKey = Schemas["RotatedApiKey"];
export type RotatedPostbackSecret = Schemas["RotatedPostbackSecret"];
export type RotatedWebhookEndpoint = Schemas["RotatedWebhookEndpoint"];
export type Seller = Schemas["Seller"];
export type Session = Schemas["Session"];
export type SignInResult = Schemas["SignInResult"];
export type StepUpPrefs = Schemas["StepUpPrefs"];
export type Transaction = Schemas["Transaction"];
export type TwoFactorEnrolment = Schemas["TwoFactorEnrolment"];
export type User = Schemas["User"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookDeliveryDetail = Schemas["WebhookDeliveryDetail"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointStats = Schemas["WebhookEndpointStats"];
export type WebhookRecovery = Schemas["WebhookRecovery"];
export type Withdrawal = Schemas["Withdrawal"];

/** A page of a list (DESIGN §2 "Lists"). */
export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}
