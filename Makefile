# lucid's build. `make test` and `make e2e` are what CI runs (.ci/run);
# `make demo` shows lucid at work in a scratch repository; `make bench`
# prints what lucid costs the agents (hook, claim, merge and remote timings);
# `make docs` writes docs/commands.md from the commands' --help.
GO      ?= go
BIN     := bin/lucid
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X main.version=$(VERSION)
# purego: blake3 in plain Go. Its SIMD code picks AVX2 or SSE4.1 through
# klauspost/cpuid, whose init, paid by every hook whether it hashes or not,
# issues enough CPUID instructions to take 0.3-0.4 ms under a hypervisor,
# where each one traps (GODEBUG=inittrace=1). Plain Go hashes at about
# 0.65 GB/s against SIMD's 3.5 GB/s (10 MiB, here): a cited source file of
# 100 KB costs 0.15 ms instead of 0.03, the log's 64-byte tail nothing, and
# a hook with nothing to hash 0.3 ms less. The tag also selects plain Go in
# the standard library's crypto, which lucid uses only for git object ids.
TAGS    := purego

.PHONY: build install test cover bench demo docs e2e clean

# CGO_ENABLED=0: a static binary skips the dynamic loader (mvdan.cc/sh
# imports os/user, which would link libc), about 1 ms off every hook call.
build:
	CGO_ENABLED=0 $(GO) build -tags $(TAGS) -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/lucid
	CGO_ENABLED=0 $(GO) build -tags $(TAGS) -trimpath -ldflags '$(LDFLAGS)' -o bin/lucid-view ./cmd/lucid-view

install:
	CGO_ENABLED=0 $(GO) install -tags $(TAGS) -trimpath -ldflags '$(LDFLAGS)' ./cmd/lucid ./cmd/lucid-view

# The suite runs here (Linux); darwin and windows are cross-compiled and
# vetted, tests included, so that neither stops building unnoticed. Vet
# type-checks but links nothing, so each package's test binary is also
# built and linked for both, and handed to `true`, which runs none of it:
# a go:linkname or assembly symbol that one system lacks fails only at the
# link. -s -w leaves out the symbol tables nobody reads here, a fifth of
# the link's time; the two steps take about 40 s on 2 cores with a warm
# cache, twice that cold. The promise suite runs once, through
# scripts/promises, which prints its table.
test:
	$(GO) vet ./...
	$(GO) vet -tags $(TAGS) ./gitstore ./internal/log/logformat ./internal/log/logstore ./cmd/lucid
	GOOS=darwin $(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	GOOS=darwin $(GO) test -exec true -vet=off -ldflags='-s -w' ./... >/dev/null
	GOOS=windows $(GO) test -exec true -vet=off -ldflags='-s -w' ./... >/dev/null
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted"; exit 1; fi
	$(GO) test -race $$($(GO) list ./... | grep -v /e2e/promises)
	GO=$(GO) ./scripts/promises

# Each package's statements covered by its own tests. cmd/lucid's tests run
# lucid as processes (its scripts), so its figure is what those processes
# ran: a build with coverage counters (gittest.CoverDirEnv).
cover:
	$(GO) test -cover $$($(GO) list ./... | grep -v '/e2e$$\|/e2e/promises$$\|/cmd/lucid$$')
	rm -rf bin/cover && mkdir -p bin/cover
	LUCID_COVERDIR=$(CURDIR)/bin/cover $(GO) test -count=1 ./cmd/lucid
	$(GO) tool covdata percent -i bin/cover -pkg github.com/lucid-dev/lucid/cmd/lucid

# The plugin section runs lucid's opencode plugin in opencode's own Bun:
# installed as for make e2e, or else a bun or node on PATH; lucid's Pi
# extension in node, and in that Bun as oh-my-pi runs it.
bench: build
	@opencode=$$(./scripts/install-opencode) || opencode=; \
	  LUCID_BENCH_OPENCODE=$$opencode $(GO) run ./cmd/lucid-bench -lucid $(BIN)

demo: build
	./scripts/demo $(BIN)

# The command reference is the commands' own --help; make test fails
# (TestCommandsDoc) while docs/commands.md is not what they print.
docs:
	$(GO) test -count=1 -run '^TestCommandsDoc$$' ./cmd/lucid -update

# The real-client suite (e2e/): Claude Code, Codex CLI, Gemini CLI, GitHub
# Copilot CLI, Qwen Code, opencode, Kilo Code CLI, Pi (0.73 and 1.x), oh-my-pi, Cline CLI and Crush
# themselves against scripted models.
# scripts/install-{claude,codex,gemini,copilot,qwen,opencode,kilo,pi,pi1,omp,cline,crush} install them into
# ~/.cache/lucid when missing; where one cannot be had, its
# installer says why and that client's tests skip.
e2e:
	@claude=$$(./scripts/install-claude) || claude=unavailable; \
	  codex=$$(./scripts/install-codex) || codex=unavailable; \
	  gemini=$$(./scripts/install-gemini) || gemini=unavailable; \
	  copilot=$$(./scripts/install-copilot) || copilot=unavailable; \
	  qwen=$$(./scripts/install-qwen) || qwen=unavailable; \
	  opencode=$$(./scripts/install-opencode) || opencode=unavailable; \
	  kilo=$$(./scripts/install-kilo) || kilo=unavailable; \
	  pi=$$(./scripts/install-pi) || pi=unavailable; \
	  pi1=$$(./scripts/install-pi1) || pi1=unavailable; \
	  omp=$$(./scripts/install-omp) || omp=unavailable; \
	  cline=$$(./scripts/install-cline) || cline=unavailable; \
	  crush=$$(./scripts/install-crush) || crush=unavailable; \
	  LUCID_E2E_CLAUDE=$$claude LUCID_E2E_CODEX=$$codex LUCID_E2E_GEMINI=$$gemini \
	  LUCID_E2E_COPILOT=$$copilot LUCID_E2E_QWEN=$$qwen \
	  LUCID_E2E_OPENCODE=$$opencode LUCID_E2E_KILO=$$kilo LUCID_E2E_PI=$$pi LUCID_E2E_PI1=$$pi1 LUCID_E2E_OMP=$$omp LUCID_E2E_CLINE=$$cline \
	  LUCID_E2E_CRUSH=$$crush \
	  $(GO) test -count=1 -timeout 30m -v ./e2e

# lucid's npm packages, @lucid-dev/lucid and one per platform, packed into
# dist/npm (scripts/npm-pack says how; make e2e installs them with npm).
.PHONY: npm
npm:
	./scripts/npm-pack --out dist/npm

clean:
	rm -rf bin

# Release archives for the six platforms, SHA256SUMS and the Homebrew
# formula, into dist/ (scripts/dist says what each file is). VERSION is
# git describe's unless given: make dist VERSION=v1.2.3 on the tag's commit.
# LUCID_DIST_PLATFORMS="linux/amd64" builds fewer. Two runs on one commit
# give the same bytes (cmd/lucid-dist's tests check it).
.PHONY: dist
dist:
	GO=$(GO) VERSION=$(VERSION) ./scripts/dist dist
