# bizcheck in a container. The image runs on the Node.js 24 that `npm ci` installs from the lock
# file (the pinned npm package `node`), like every npm script does; the build stage's own Node is
# only there to run npm.
#
#   docker build -t bizcheck .
#   docker run -p 8080:8080 -v bizcheck-data:/data bizcheck                 # everything, embedded store
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… bizcheck serve --role api
#   docker run -p 9090:8080 -e DATABASE_URL=postgres://… bizcheck serve --role worker
#
# Accounts and keys: docker run --rm -e DATABASE_URL=… bizcheck accounts create --email … --plan business
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's prepare script bundles the web console (web/src → web/dist) with esbuild
COPY scripts/build-console.ts ./scripts/
COPY web ./web
# exactly the lock file; no dev tools (tsc, oxlint, test and bench libraries) in the image
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && rm -rf web/src
COPY bin ./bin
COPY src ./src

# Debian slim has the C++ runtime the Node binary links against; nothing else is needed
FROM debian:bookworm-slim
RUN useradd --system --create-home --uid 10001 bizcheck && mkdir /data && chown bizcheck /data
WORKDIR /app
COPY --from=build /app /app
# as `npm start`: two malloc arenas (SQLite and the worker threads allocate outside V8; glibc's
# default of eight per core left 40–60 MB more resident under a large job) and the heap limits
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/data PATH=/app/node_modules/.bin:$PATH MALLOC_ARENA_MAX=2
VOLUME /data
EXPOSE 8080
USER bizcheck
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--disable-warning=ExperimentalWarning", "--max-old-space-size=1024", "--max-semi-space-size=16", "--v8-pool-size=0", "bin/bizcheck.js"]
CMD ["serve", "--role", "all"]
