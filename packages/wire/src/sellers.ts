import { Type, type Static } from "@sinclair/typebox";
import { Nullable, StringEnum, Timestamp, wireObject } from "./schema";

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
