import { Type, type Static } from "@sinclair/typebox";
import type { Seller as SellerRow } from "@lm/db";
import { Nullable, StringEnum, Timestamp, wireObject, iso } from "./schema";

/** DESIGN §7 "Seller": the profile; `status` is the verification (KYC) status. The document is always masked. */
export const Seller = wireObject(
  "Seller",
  Type.Object(
    {
      id: Type.String({ pattern: "^sel_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("seller"),
      status: StringEnum(["pending", "approved", "rejected"]),
      legal_name: Type.String(),
      trade_name: Nullable(Type.String()),
      document_type: StringEnum(["cpf", "cnpj"]),
      document_masked: Type.String({ description: "E.g. `***.456.789-**`; the full CPF/CNPJ is never returned." }),
      email: Nullable(Type.String()),
      withdrawals_locked_until: Nullable(Timestamp, {
        description:
          "Set 24 h ahead when an owner turns 2FA off (`disable` or the lost-2FA recovery) or enrols again after turning it off: withdrawals are refused (`withdrawals_locked`) until then.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    {
      description:
        'DESIGN §7 "Seller": the profile; `status` is the verification (KYC) status. The document is always masked.',
    },
  ),
);
/** Seller as sent. */
export type Seller = Static<typeof Seller>;

/** Serializes `seller`; the document leaves masked only. */
export function serializeSeller(seller: SellerRow): Seller {
  return {
    id: seller.id,
    object: "seller",
    status: seller.kyc_status,
    legal_name: seller.legal_name,
    trade_name: seller.trade_name,
    // A masked CNPJ keeps its `/`, a masked CPF has none.
    document_type: seller.document_masked.includes("/") ? "cnpj" : "cpf",
    document_masked: seller.document_masked,
    email: seller.email,
    withdrawals_locked_until: iso(seller.withdrawals_locked_until),
    created_at: seller.created_at.toISOString(),
    updated_at: seller.updated_at.toISOString(),
  };
}
