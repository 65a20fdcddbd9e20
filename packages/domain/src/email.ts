/**
 * Email addresses as the service stores and compares them.
 */

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form emails are stored, compared and rate-limited in: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether an already normalised `email` looks like an address (one `@`, a dot in the domain, at most 254 chars). */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}
