# One image for every process of the Procfile; the command picks the role:
#   web (default)   node dist/api/server.js
#   worker          node dist/workers/main.js          (WORKER_QUEUES picks the queues; all when unset)
#   release         node dist/scripts/release.js       (migrations and job schedulers; run once per deploy)
#   first Admin     node dist/scripts/seed.js          (needs ADMIN_PASSWORD of 12 characters or more)
# Not built on the project's machines (they reach no container registry); see docs/operations.md.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    STORAGE_LOCAL_DIR=/app/.data/storage
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/Procfile ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/.data/storage && chown -R node:node /app/.data
USER node
EXPOSE 3000
# The web process answers GET /health on PORT; a worker container overrides this with the "worker" argument and
# sets WORKER_METRICS_PORT (docker-compose.yml does).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/scripts/healthcheck.js", "web"]
CMD ["node", "dist/api/server.js"]
