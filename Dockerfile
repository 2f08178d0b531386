# Seller Desk: two stages, a static binary, run as a non-root user.
# Build: docker build -t sellerdesk .    Run: docker run -p 8080:8080 sellerdesk
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/sellerdesk ./cmd/web \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/sellerdesk-sandbox ./cmd/sandbox \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sellerdesk /out/sellerdesk-sandbox /usr/local/bin/
# SQLite sessions (and the generated key, when SELLERDESK_SESSION_KEY is
# unset) live here; mount a volume to keep them across containers.
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV SELLERDESK_ADDR=:8080 \
    SELLERDESK_DATABASE_URL=/data/sellerdesk.db \
    SELLERDESK_LOG_FORMAT=json
EXPOSE 8080
VOLUME ["/data"]
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/sellerdesk"]
