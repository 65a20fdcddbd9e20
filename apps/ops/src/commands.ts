/**
 * The operators' commands by name (DESIGN §5 "Operators' command line").
 */
import {
  acquirerActivate,
  acquirerCheck,
  acquirerConfigure,
  acquirerReconcile,
  acquirerRegisterWebhook,
} from "./acquirer-bank";
import { acquirerCreate } from "./acquirer-create";
import { apiKeyCreate } from "./api-key-create";
import type { Command } from "./command";
import { documentsEncrypt } from "./documents-encrypt";
import { inviteCreate } from "./invite-create";
import { retentionRun } from "./retention-run";
import { userCreate } from "./user-create";
import { sellerCreate } from "./seller-create";
import { sellerKyc } from "./seller-kyc";
import { withdrawalList } from "./withdrawal-list";

/** Every command, by the name typed after `npm run ops --`. */
export const COMMANDS: Record<string, Command> = {
  "seller:create": sellerCreate,
  "seller:kyc": sellerKyc,
  "api-key:create": apiKeyCreate,
  "invite:create": inviteCreate,
  "user:create": userCreate,
  "acquirer:create": acquirerCreate,
  "acquirer:configure": acquirerConfigure,
  "acquirer:activate": acquirerActivate,
  "acquirer:check": acquirerCheck,
  "acquirer:register-webhook": acquirerRegisterWebhook,
  "acquirer:reconcile": acquirerReconcile,
  "documents:encrypt": documentsEncrypt,
  "withdrawal:list": withdrawalList,
  "retention:run": retentionRun,
};
