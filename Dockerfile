# perpsim as a container: the exchange server (perpsim serve) by default.
#   docker build -t perpsim .
#   docker run --rm -p 8080:8080 -v "$PWD/users.json:/run/secrets/perpsim-users.json:ro" perpsim   # default scenario, live agents
#   (users.json: {"alice": "…", "bob": "…"}; a --host beyond loopback needs every scenario user's password)
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
# Inside a container the server must listen on every interface to be reachable from outside, and
# perpsim serve refuses a non-loopback --host without --user-passwords (the demo passwords are
# public): the default command reads them from a file mounted at /run/secrets/perpsim-users.json.
EXPOSE 8080
ENTRYPOINT ["node", "/app/bin/perpsim.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--user-passwords", "/run/secrets/perpsim-users.json"]
