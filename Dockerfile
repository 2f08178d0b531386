# Seller Desk: static binaries on a distroless base, run as a non-root user.
#   docker build -t sellerdesk --build-arg VERSION=v1.4.0 .        (the dashboard; the default target)
#   docker build -t sellerdesk-sandbox --target sandbox .           (the marketplace sandbox alone)
#   docker run -p 8080:8080 -v sellerdesk-data:/data sellerdesk
# The build stamps the version, commit and date (sellerdesk -version).
FROM golang:1.26-trixie AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=""
ARG BUILD_DATE=""
RUN set -eu; \
    pkg=github.com/sellerdesk/sellerdesk/internal/buildinfo; \
    commit="${COMMIT:-$(git rev-parse HEAD 2>/dev/null || true)}"; \
    date="${BUILD_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}"; \
    ldflags="-s -w -X $pkg.version=$VERSION -X $pkg.commit=$commit -X $pkg.date=$date"; \
    CGO_ENABLED=0 go build -trimpath -ldflags="$ldflags" -o /out/sellerdesk ./cmd/web; \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/sellerdesk-sandbox ./cmd/sandbox; \
    mkdir -p /out/data

# The sandbox in an image of its own: never in the production image.
FROM gcr.io/distroless/static-debian13:nonroot AS sandbox
COPY --from=build /out/sellerdesk-sandbox /usr/local/bin/
EXPOSE 9090
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/sellerdesk-sandbox", "-addr", ":9090"]

FROM gcr.io/distroless/static-debian13:nonroot AS runtime
COPY --from=build /out/sellerdesk /usr/local/bin/
# The SQLite file (sessions, history, jobs, the catalogue copy) and its
# generated .key file, when SELLERDESK_SESSION_KEY is unset, live here:
# mount a volume to keep them (docs/operations.md: backups).
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV SELLERDESK_ADDR=:8080 \
    SELLERDESK_DATABASE_URL=/data/sellerdesk.db \
    SELLERDESK_LOG_FORMAT=json
EXPOSE 8080
VOLUME ["/data"]
USER nonroot:nonroot
# No shell in the image: the binary checks itself (GET /healthz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/usr/local/bin/sellerdesk", "-healthcheck"]
ENTRYPOINT ["/usr/local/bin/sellerdesk"]
