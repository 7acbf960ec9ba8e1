// Package clienttest holds what the client adapters' tests share: the
// payloads their clients sent, recorded in the repository's
// testdata/payloads, and the tables an adapter's test is written as (what
// lucid reads of a payload, what the client is given of lucid's answer),
// each with its runner.
package clienttest

import (
	"os"
	"path/filepath"
	"reflect"
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

// Adapter is a client's adapter under test, with the payloads recorded
// from its client's version.
type Adapter struct {
	Client  client.Client
	Version string // a folder of testdata/payloads
	// Prefix is what the names of a variant's payloads start with, before
	// the event ("relative-").
	Prefix string
}

// Recorded is the payload recorded as name.
func (a Adapter) Recorded(t testing.TB, name string) []byte {
	t.Helper()
	return Recorded(t, a.Version, name)
}

// Decode decodes the payload recorded as name as an event of the client:
// the name's first word, after the Prefix where it has it.
func (a Adapter) Decode(t testing.TB, name string) client.Input {
	t.Helper()
	in, err := a.Client.Decode(a.event(name), a.Recorded(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return in
}

func (a Adapter) event(name string) string {
	event, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(name, ".json"), a.Prefix), "-")
	return event
}

// Decoding is a row of an adapter's table of payloads: one payload and
// what lucid reads of it.
type Decoding struct {
	File    string // a recorded payload
	Payload string // the payload itself, where there is no File
	// Event is the client's name of the payload's event; for a File, its
	// name's first word by default (Decode).
	Event string
	Want  client.Input // compared whole, but for its ToolInput
	Err   string       // where the payload is refused: how the error starts
}

// TestDecode decodes the payload of each row and compares what lucid
// reads of it with the row's.
func (a Adapter) TestDecode(t *testing.T, rows []Decoding) {
	t.Helper()
	for _, r := range rows {
		name, payload, event := r.File, []byte(r.Payload), r.Event
		if r.File != "" {
			payload = a.Recorded(t, r.File)
			if event == "" {
				event = a.event(r.File)
			}
		} else {
			name = event + " " + r.Payload
		}
		got, err := a.Client.Decode(event, payload)
		switch {
		case r.Err != "":
			if err == nil || !strings.HasPrefix(err.Error(), r.Err) {
				t.Errorf("%s: error %v, want one that starts %q", name, err, r.Err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		got.ToolInput = nil
		if !reflect.DeepEqual(got, r.Want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, r.Want)
		}
	}
}

// Encoding is a row of an adapter's table of answers: one of lucid's
// answers to a call, and what the client is given of it.
type Encoding struct {
	Name string
	In   client.Input
	Out  client.Output
	// Want is the adapter's stdout without its newline, "" for none; an
	// answer goes with no line on stderr and exit 0.
	Want string
}

// TestEncode encodes the answer of each row and compares it with the
// row's.
func (a Adapter) TestEncode(t *testing.T, rows []Encoding) {
	t.Helper()
	for _, r := range rows {
		b, line, code := a.Client.Encode(r.In, &r.Out)
		want := r.Want
		if want != "" {
			want += "\n"
		}
		if string(b) != want || line != "" || code != 0 {
			t.Errorf("%s: %q, %q, exit %d\nwant %q", r.Name, b, line, code, want)
		}
	}
}

// With is in as f changes it: a row's Want that differs from a base.
func With(in client.Input, f func(*client.Input)) client.Input {
	f(&in)
	return in
}

// Env is the environment that sets the variables of kv (name, value,
// name, value, ...; the last of a name's wins), as getenv reads it.
func Env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}
