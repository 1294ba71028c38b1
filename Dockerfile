# perpsim as a container: the exchange server (perpsim serve) by default.
#   docker build -t perpsim .
#   docker run --rm -p 8080:8080 perpsim                       # default scenario, live agents
#   docker run --rm -p 8080:8080 perpsim serve --host 0.0.0.0 --scenario empty --manual --admin-token secret
# Any other command works the same way: docker run --rm perpsim scenarios

# Build stage: all dependencies (TypeScript included), then src/ → dist/.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (the build) needs the sources, copied next.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build

# Runtime stage: production dependencies only, the built JavaScript and the scenarios.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY scenarios ./scenarios
# No src/ here, so bin/perpsim.js runs dist/ (plain node; tsx only for .ts strategy files).
# Inside a container the server must listen on every interface to be reachable from outside.
EXPOSE 8080
ENTRYPOINT ["node", "/app/bin/perpsim.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
