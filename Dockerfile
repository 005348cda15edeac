# Build: cgo is on for SQLite (mattn/go-sqlite3).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/munshi ./cmd/munshi

# Run: a small Debian with the C library the binary links against, as a
# non-root user. The database lives in the volume /data, so a new image
# keeps the books.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 munshi \
    && mkdir /data && chown munshi /data
COPY --from=build /out/munshi /usr/local/bin/munshi
USER munshi
WORKDIR /home/munshi
ENV MUNSHI_ADDR=0.0.0.0:8080 MUNSHI_DB=/data/munshi.db
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers 200 while the server runs; bash's /dev/tcp needs no
# HTTP client in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["munshi"]
CMD ["serve"]
