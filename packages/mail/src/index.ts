export * from "./mailer";
export * from "./account-mails";
export * from "./webhook-mails";
export * from "./money-mails";
