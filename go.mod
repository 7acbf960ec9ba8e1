module github.com/lucid-dev/lucid

go 1.26.0

require (
	github.com/go-git/go-git/v5 v5.19.3
	github.com/spf13/pflag v1.1.0
	github.com/zeebo/blake3 v0.2.4
)

require (
	github.com/go-git/gcfg v1.5.1-0.20230307220236-3a3c6141e376 // indirect
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
	gopkg.in/warnings.v0 v0.1.2 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
