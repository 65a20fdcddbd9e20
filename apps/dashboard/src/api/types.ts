/**
 * The panel API's objects as the dashboard reads them: the schemas of the OpenAPI document (`npm run openapi`
 * generates them from the route contracts), so a field the API renames fails the dashboard's type check.
 */
import type { components } from "../../../cli/src/generated/merchant-api";

type Schemas = components["schemas"];

/** `live` or `test` (DESIGN §2 "Modes"). */
export type Mode = Schemas["Mode"];
/** `ApiKey` of the OpenAPI document. */
export type ApiKey = Schemas["ApiKey"];
/** `Balance` of the OpenAPI document. */
export type Balance = Schemas["Balance"];
/** `BalanceTransaction` of the OpenAPI document. */
export type BalanceTransaction = Schemas["BalanceTransaction"];
/** `CreatedApiKey` of the OpenAPI document. */
export type CreatedApiKey = Schemas["CreatedApiKey"];
/** `CreatedWebhookEndpoint` of the OpenAPI document. */
export type CreatedWebhookEndpoint = Schemas["CreatedWebhookEndpoint"];
/** `Dispute` of the OpenAPI document. */
export type Dispute = Schemas["Dispute"];
/** `Error` of the OpenAPI document. */
export type ErrorEnvelope = Schemas["Error"];
/** `EventEnvelope` of the OpenAPI document. */
export type EventEnvelope = Schemas["EventEnvelope"];
/** `EventType` of the OpenAPI document. */
export type EventType = Schemas["EventType"];
/** `InviteCheck` of the OpenAPI document. */
export type InviteCheck = Schemas["InviteCheck"];
/** `Notification` of the OpenAPI document. */
export type Notification = Schemas["Notification"];
/** `PayoutKey` of the OpenAPI document. */
export type PayoutKey = Schemas["PayoutKey"];
/** `PostbackSecretInfo` of the OpenAPI document. */
export type PostbackSecretInfo = Schemas["PostbackSecretInfo"];
/** `Refund` of the OpenAPI document. */
export type Refund = Schemas["Refund"];
/** `RotatedApiKey` of the OpenAPI document. */
export type RotatedApiKey = Schemas["RotatedApiKey"];
/** `RotatedPostbackSecret` of the OpenAPI document. */
export type RotatedPostbackSecret = Schemas["RotatedPostbackSecret"];
/** `RotatedWebhookEndpoint` of the OpenAPI document. */
export type RotatedWebhookEndpoint = Schemas["RotatedWebhookEndpoint"];
/** `Seller` of the OpenAPI document. */
export type Seller = Schemas["Seller"];
/** `Session` of the OpenAPI document. */
export type Session = Schemas["Session"];
/** `SignInResult` of the OpenAPI document. */
export type SignInResult = Schemas["SignInResult"];
/** `StepUpPrefs` of the OpenAPI document. */
export type StepUpPrefs = Schemas["StepUpPrefs"];
/** `Transaction` of the OpenAPI document. */
export type Transaction = Schemas["Transaction"];
/** `TwoFactorEnrolment` of the OpenAPI document. */
export type TwoFactorEnrolment = Schemas["TwoFactorEnrolment"];
/** `User` of the OpenAPI document. */
export type User = Schemas["User"];
/** `WebhookDelivery` of the OpenAPI document. */
export type WebhookDelivery = Schemas["WebhookDelivery"];
/** `WebhookDeliveryDetail` of the OpenAPI document. */
export type WebhookDeliveryDetail = Schemas["WebhookDeliveryDetail"];
/** `WebhookEndpoint` of the OpenAPI document. */
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
/** `WebhookEndpointStats` of the OpenAPI document. */
export type WebhookEndpointStats = Schemas["WebhookEndpointStats"];
/** `WebhookRecovery` of the OpenAPI document. */
export type WebhookRecovery = Schemas["WebhookRecovery"];
/** `Withdrawal` of the OpenAPI document. */
export type Withdrawal = Schemas["Withdrawal"];

/** A page of a list (DESIGN §2 "Lists"). */
export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}
