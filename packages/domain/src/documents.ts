/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 digits), validated by their check
 * digits with @brazilian-utils, and masked for display (LGPD: a document is never shown whole).
 */
import { isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";

/** A validated document, digits only. */
export interface TaxDocument {
  kind: "cpf" | "cnpj";
  digits: string;
}

/**
 * Parses a CPF or CNPJ written with or without punctuation (`123.456.789-09`, `12345678909`).
 * @returns the document, or `null` when it is not a valid CPF or CNPJ (wrong length, check digits or characters)
 */
export function parseTaxDocument(input: string): TaxDocument | null {
  if (!/^[\d.\-/\s]+$/.test(input)) return null;
  const digits = input.replace(/\D/g, "");
  if (digits.length === 11 && isValidCpf(digits)) return { kind: "cpf", digits };
  if (digits.length === 14 && isValidCnpj(digits)) return { kind: "cnpj", digits };
  return null;
}

/**
 * Masks a document for replies and events, in the form Pix receipts use: a CPF keeps its middle six digits
 * (`***.456.789-**`), a CNPJ its middle eight (`**.345.678/0001-**`).
 * @param digits - 11 or 14 digits; anything else is masked entirely
 */
export function maskTaxDocument(digits: string): string {
  if (digits.length === 11) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  if (digits.length === 14) return `**.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-**`;
  return "*".repeat(Math.max(digits.length, 1));
}
