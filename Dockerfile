# Build: cgo is on for SQLite (mattn/go-sqlite3).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/munshi ./cmd/munshi

# Run: a small Debian with the C library the binary links against, as a
# non-root user whose home holds the database.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 munshi
COPY --from=build /out/munshi /usr/local/bin/munshi
USER munshi
WORKDIR /home/munshi
ENV MUNSHI_ADDR=0.0.0.0:8080 MUNSHI_DB=/home/munshi/munshi.db
EXPOSE 8080
ENTRYPOINT ["munshi"]
CMD ["serve"]
