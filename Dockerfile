# One image, several processes: the compose file picks the entry point per service.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A larger young generation: replay and request handling make many short-lived objects, and the
# default 16 MB semi-space spent about a quarter of a rebuild's CPU in scavenges (README, Rebuilds).
ENV NODE_OPTIONS=--max-semi-space-size=64
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
EXPOSE 8080
CMD ["node", "dist/apps/switchyard/src/main.js"]
