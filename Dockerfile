# Build stage: the official Swift image on Debian bookworm, with libmicrohttpd's, SQLite's and
# libpq's headers.
FROM swift:6.3-bookworm AS build
# Versions are not pinned (hadolint DL3008): the base image fixes the Debian release, and a
# security update removes the pinned version from the mirror, which would break the build.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies before copying the sources, so a source change reuses this layer.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# The contract, compiled into the binary by the EmbedOpenAPI plugin (served at /openapi.json).
COPY Plugins ./Plugins
COPY openapi.json ./
RUN swift build -c release --static-swift-stdlib --product pagerd \
    && install -D "$(swift build -c release --static-swift-stdlib --show-bin-path)/pagerd" /out/pagerd

# Runtime stage: only libmicrohttpd, SQLite, libpq, tini to pass signals on, and the binary.
# Sessions are kept in SQLite on the volume /app/data, owned by the non-root user (or, with
# PAGERD_STORAGE=postgres, in PostgreSQL).
FROM debian:bookworm-slim
# Not pinned either, for the same reason: the runtime takes bookworm's security updates.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 tini \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /app/data \
    && chown 10001:10001 /app/data
WORKDIR /app
COPY --from=build /out/pagerd /usr/local/bin/pagerd
COPY config ./config
COPY web ./web
ENV PAGERD_HOST=0.0.0.0 \
    PAGERD_PORT=8080 \
    PAGERD_STORAGE=sqlite \
    PAGERD_DATA_PATH=/app/data/pagerd.db
VOLUME ["/app/data"]
EXPOSE 8080
USER 10001:10001
# No curl in the image: bash's /dev/tcp sends the request.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PAGERD_PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/pagerd"]
