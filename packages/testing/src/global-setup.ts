/**
 * Jest global setup: builds the migrated template database once per run.
 */
import { ensureTemplateDatabase } from "./template-database";

export default async function globalSetup(): Promise<void> {
  await ensureTemplateDatabase();
}
