# lucid's build. `make test` is what CI runs (.ci/run); `make demo` shows
# lucid at work in a scratch repository; `make bench` prints the figures the
# issues ask for.
GO      ?= go
BIN     := bin/lucid
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: build install test bench demo e2e clean

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/lucid

install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/lucid

test:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) test -race ./...

bench: build
	$(GO) run ./internal/bench -lucid $(BIN)

demo: build
	./scripts/demo $(BIN)

clean:
	rm -rf bin
