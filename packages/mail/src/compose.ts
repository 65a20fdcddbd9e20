/**
 * The layout every mail shares: paragraphs and an optional call-to-action link, as a plain-text and an HTML body with
 * the same content; everything is escaped in the HTML.
 */
import type { MailMessage } from "./mailer";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Builds both bodies of a mail from paragraphs and an optional call-to-action link. */
export function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): MailMessage {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join("\n\n");
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
  ].join("\n");
  return { to, subject, text: `${text}\n`, html };
}
