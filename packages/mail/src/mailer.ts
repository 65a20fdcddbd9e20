/**
 * Outgoing mail with nodemailer (DESIGN §6): through `SMTP_URL` when it is set, otherwise each message is written as
 * one JSON file under `MAIL_OUTBOX_DIR` (development, and tests that read what was sent).
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "@lm/config";

/** A message ready to send: both a plain-text and an HTML body. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail; the API and the worker each hold one. */
export interface Mailer {
  /**
   * Sends `message`.
   * @throws Error when the transport refuses it (callers decide whether that matters to their reply)
   */
  send(message: MailMessage): Promise<void>;
  /** Closes pooled SMTP connections. */
  close(): void;
}

/**
 * Creates the process mailer.
 * @param config.smtpUrl - `smtp://` or `smtps://` URL; when absent mail goes to `config.mailOutboxDir`
 * @param config.mailFrom - `From` header of every message
 */
export function createMailer(config: Pick<Config, "smtpUrl" | "mailOutboxDir" | "mailFrom">): Mailer {
  if (config.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await mkdir(config.mailOutboxDir, { recursive: true });
      // Time first so that a directory listing sorts in sending order.
      const name = `${Date.now()}-${randomBytes(6).toString("hex")}.json`;
      await writeFile(path.join(config.mailOutboxDir, name), info.message, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}
