# adrkit-mcp in a container: a static binary on a distroless base, run as a
# non-root user, reading a repository mounted read-only. It writes nothing,
# so the container can run with a read-only root filesystem too:
#
#   docker run -i --rm -v "$PWD:/repo:ro" ghcr.io/adrkit/adrkit-mcp --cwd /repo
#
# Multi-platform builds (docker buildx build --platform linux/amd64,linux/arm64)
# cross-compile on the build machine's platform. release/release_test.go runs
# this file's go build line and the image's user and entry point against a
# read-only tree (docs/releasing.md says how).

FROM --platform=$BUILDPLATFORM golang:1.26 AS build
ARG TARGETOS TARGETARCH
ARG VERSION=0.0.0-dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -ldflags="-s -w -X github.com/adrkit/adrkit-go/internal/version.stamp=$VERSION" -o /out/adrkit-mcp ./cmd/adrkit-mcp

# distroless/static: no shell, no libc, CA certificates and tzdata only;
# the :nonroot tag's user is uid 65532.
FROM gcr.io/distroless/static-debian12:nonroot
ARG VERSION=0.0.0-dev
LABEL io.modelcontextprotocol.server.name="io.github.adrkit/adrkit-go" \
      org.opencontainers.image.title="adrkit-mcp" \
      org.opencontainers.image.description="Decision memory for coding agents: an MCP server over a repository's ADRs" \
      org.opencontainers.image.source="https://github.com/adrkit/adrkit-go" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="$VERSION"
COPY --from=build /out/adrkit-mcp /usr/local/bin/adrkit-mcp
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/adrkit-mcp"]
CMD ["--cwd", "/repo"]
