export * from "./mailer";
export * from "./account-mails";
