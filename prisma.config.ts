/**
 * Prisma CLI configuration: the JavaScript schema engine over the `pg` driver adapter, so that no native engine is
 * downloaded (see PRISMA-OFFLINE.md beside the project). `DATABASE_URL` defaults to the development database, so the
 * CLI always has a readable schema (an unreadable one makes it try to download an engine). The CLI connects to
 * `DATABASE_DIRECT_URL` when it is set (DESIGN §10 "PostgreSQL through a pooler"): migrations take a session-level
 * advisory lock, which a transaction-mode pooler at `DATABASE_URL` would hand to whichever client came next.
 */
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { PrismaConfig } from "prisma";

const DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/lm_pix";
process.env.DATABASE_URL ??= DEFAULT_DATABASE_URL;

export default {
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL });
  },
} satisfies PrismaConfig;
