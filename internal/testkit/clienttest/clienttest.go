// Package clienttest holds what the client adapters' tests share: the
// payloads their clients sent, recorded in the repository's
// testdata/payloads, and their decoding.
package clienttest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
)

// Recorded is the payload name recorded from the client version (a
// folder of testdata/payloads, such as "gemini-0.61.0").
func Recorded(t testing.TB, version, name string) []byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "payloads", version, name))
	if err != nil {
		t.Fatalf("no recorded payload %s of %s: %v", name, version, err)
	}
	return b
}

// Decode decodes the payload name recorded from the client version as
// an event of c: the name's first word, after the prefix given (a
// variant's, such as "relative-").
func Decode(t testing.TB, c client.Client, version, prefix, name string) client.Input {
	t.Helper()
	event, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(name, ".json"), prefix), "-")
	in, err := c.Decode(event, Recorded(t, version, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return in
}
