# One image for the API, the worker and the ops command line; the compose service picks the command.
FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json tsconfig.base.json tsconfig.json prisma.config.ts ./
COPY patches ./patches
COPY prisma ./prisma
COPY apps/api/package.json apps/api/package.json
COPY apps/worker/package.json apps/worker/package.json
COPY apps/ops/package.json apps/ops/package.json
COPY apps/dashboard/package.json apps/dashboard/package.json
COPY packages/config/package.json packages/config/package.json
COPY packages/db/package.json packages/db/package.json
COPY packages/domain/package.json packages/domain/package.json
COPY packages/logging/package.json packages/logging/package.json
COPY packages/mail/package.json packages/mail/package.json
COPY packages/metrics/package.json packages/metrics/package.json
COPY packages/queue/package.json packages/queue/package.json
COPY packages/testing/package.json packages/testing/package.json
# Dev dependencies stay: esbuild builds the services' bundles, tsx runs migrations and the ops command line, and the
# Prisma CLI applies migrations.
RUN npm ci --include=dev --no-audit --no-fund
COPY apps ./apps
COPY packages ./packages
# The Markdown docs the API serves (`GET /docs/{page}.md`) are made from the README and docs/ when first asked for.
COPY README.md ./
COPY docs ./docs
RUN npx prisma generate
COPY scripts ./scripts
RUN npm run build
USER node
EXPOSE 3000
CMD ["npm", "run", "start:api"]
