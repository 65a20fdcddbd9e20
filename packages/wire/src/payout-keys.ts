import { Type, type Static } from "@sinclair/typebox";
import type { PayoutKey as PayoutKeyRow } from "@lm/db";
import { StringEnum, Timestamp, listOf, wireObject } from "./schema";

/** DESIGN §7 "Payout keys": one of the seller's own Pix keys; shown masked only. */
export const PayoutKey = wireObject(
  "PayoutKey",
  Type.Object(
    {
      id: Type.String({ pattern: "^pk_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("payout_key"),
      type: StringEnum(["cpf", "cnpj", "email", "phone", "evp"]),
      key_masked: Type.String({
        description:
          "E.g. `***.456.789-**`, `f***@example.com`, `+5511*****4321`, `71c7d9be-****-****-****-********9a2d`.",
      }),
      created_at: Timestamp,
    },
    { description: 'DESIGN §7 "Payout keys": one of the seller\'s own Pix keys; shown masked only.' },
  ),
);
/** PayoutKey as sent. */
export type PayoutKey = Static<typeof PayoutKey>;

/** A page of PayoutKey objects. */
export const PayoutKeyList = listOf("PayoutKeyList", PayoutKey);
/** PayoutKeyList as sent. */
export type PayoutKeyList = Static<typeof PayoutKeyList>;

/** Serializes `key` (masked). */
export function serializePayoutKey(key: PayoutKeyRow): PayoutKey {
  return {
    id: key.id,
    object: "payout_key",
    type: key.type,
    key_masked: key.key_masked,
    created_at: key.created_at.toISOString(),
  };
}
