package jsonread

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The reference for every test is encoding/json: jsonread must accept
// what it accepts and read the same values.

var samples = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":"x","a":"y"}`, `{"a":[1,{"b":null}],"c":true}`,
	`{"s":"\u00e9\ud83d\ude00\ud800x\udc00\\\"\/\b\f\n\r\t"}`, "{\"s\":\"caf\xc3\xa9 \xff\xfe\"}",
	`{"n":-0.5e+10}`, `{"n":01}`, `{"n":1.}`, `{"n":-}`, `{"a":1,}`, `{"a" 1}`, `{"a":1}x`,
	`[1]`, `"x"`, `{"a":tru}`, "{\"a\":\"\x01\"}", `{"a":"\x"}`, `{"a":"\u12"}`, ``, `{`,
	`{"é":1,"\u0041":2}`, `{"a":{"b":{"c":[[[]]]}}}`, "{\"a\":1}\n", `{"a":[1 2]}`,
	`{"seen":["a","b",null]}`, `{"n":18446744073709551615,"m":-9223372036854775808}`,
}

// payloads are the hook payloads the real clients sent.
func payloads(t testing.TB) [][]byte {
	var out [][]byte
	for _, glob := range []string{"../../testdata/payloads/*/*.json", "../../testdata/payloads/*/*/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				out = append(out, b)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no payloads under testdata/payloads")
	}
	return out
}

func members(b []byte) (map[string]string, []string, error) {
	got := map[string]string{}
	var keys []string
	err := Object(b, func(k string, v []byte) error {
		got[k] = string(v)
		keys = append(keys, k)
		return nil
	})
	return got, keys, err
}

func checkObject(t *testing.T, b []byte) {
	got, _, err := members(b)
	var want map[string]json.RawMessage
	werr := json.Unmarshal(b, &want)
	isObject := werr == nil && want != nil
	if (err == nil) != isObject {
		t.Fatalf("Object(%q): error %v, encoding/json: %v (object %v)", b, err, werr, isObject)
	}
	if err != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("Object(%q): %d members, encoding/json %d", b, len(got), len(want))
	}
	for k, v := range want {
		if got[k] != string(v) {
			t.Fatalf("Object(%q): member %q is %q, encoding/json %q", b, k, got[k], v)
		}
	}
}

func TestObjectAsEncodingJSON(t *testing.T) {
	for _, s := range samples {
		checkObject(t, []byte(s))
	}
	for _, p := range payloads(t) {
		checkObject(t, p)
	}
}

func TestObjectOrderAndStop(t *testing.T) {
	_, keys, err := members([]byte(`{"b":1,"a":2,"b":3}`))
	if err != nil || strings.Join(keys, ",") != "b,a,b" {
		t.Fatalf("keys %v, %v; want b,a,b in order", keys, err)
	}
	stop := Object([]byte(`{"a":1,"b":2}`), func(k string, _ []byte) error {
		if k == "a" {
			return os.ErrInvalid
		}
		t.Fatal("walk went on after member's error")
		return nil
	})
	if stop != os.ErrInvalid {
		t.Fatalf("Object returned %v, want member's error", stop)
	}
	deep := strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1)
	if err := Object([]byte(deep), func(string, []byte) error { return nil }); err == nil {
		t.Fatal("an object nested past the limit was read")
	}
}

// checkValue compares each reader with encoding/json on one valid value.
func checkValue(t *testing.T, v []byte) {
	var s string
	var i int64
	var u uint64
	var bo bool
	var ss []string
	cases := []struct {
		name string
		got  func() (any, error)
		want any
	}{
		{"String", func() (any, error) { return String(v) }, &s},
		{"Int", func() (any, error) { return Int(v) }, &i},
		{"Uint", func() (any, error) { return Uint(v) }, &u},
		{"Bool", func() (any, error) { return Bool(v) }, &bo},
		{"Strings", func() (any, error) { return Strings(v) }, &ss},
	}
	for _, c := range cases {
		werr := json.Unmarshal(v, c.want)
		got, err := c.got()
		if (err == nil) != (werr == nil) {
			t.Fatalf("%s(%q): error %v, encoding/json: %v", c.name, v, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, reflect.ValueOf(c.want).Elem().Interface()) {
			t.Fatalf("%s(%q) = %#v, encoding/json %#v", c.name, v, got, reflect.ValueOf(c.want).Elem().Interface())
		}
	}
}

func TestValuesAsEncodingJSON(t *testing.T) {
	for _, v := range []string{
		`"x"`, `""`, `null`, `true`, `false`, `0`, `-0`, `12`, `-12`, `1.5`, `1e3`, `18446744073709551615`,
		`18446744073709551616`, `-9223372036854775809`, `["a","b"]`, `[]`, `["a",1]`, `[null,"x"]`, `{}`,
		`"\ud83d\ude00"`, `"\ud83dx"`, `"\udc00\ud83d"`, "\"\xff\"", `"\u0000"`, `"a\/b"`,
	} {
		checkValue(t, []byte(v))
	}
}

func FuzzObject(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	for _, p := range payloads(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkObject(t, b)
		if !json.Valid(b) {
			return
		}
		// Every value inside, too.
		var walk func(v []byte)
		walk = func(v []byte) {
			v = bytes.TrimSpace(v)
			checkValue(t, v)
			if len(v) > 0 && v[0] == '{' {
				Object(v, func(_ string, m []byte) error { walk(m); return nil })
			}
		}
		walk(b)
	})
}

// record has a target of every kind Fields takes.
type record struct {
	S   string   `json:"s"`
	B   bool     `json:"b"`
	I   int      `json:"i"`
	I64 int64    `json:"i64"`
	U64 uint64   `json:"u64"`
	SS  []string `json:"ss"`
	Raw []byte   `json:"-"`
	In  inner    `json:"in"`
}

type inner struct {
	S string `json:"s"`
	N int64  `json:"n"`
}

// reference reads b as encoding/json does, Raw as a json.RawMessage.
func reference(b []byte) (record, error) {
	var r record
	var raw struct {
		Raw json.RawMessage `json:"raw"`
	}
	err := json.Unmarshal(b, &r)
	if json.Unmarshal(b, &raw) == nil {
		r.Raw = raw.Raw
	}
	return r, err
}

func readFields(b []byte) (record, error) {
	var r record
	err := Fields(b, map[string]any{
		"s": &r.S, "b": &r.B, "i": &r.I, "i64": &r.I64, "u64": &r.U64, "ss": &r.SS, "raw": &r.Raw,
		"in": func(v []byte) error { return Fields(v, map[string]any{"s": &r.In.S, "n": &r.In.N}) },
	})
	return r, err
}

// caseVariant reports whether b has a key that encoding/json would take
// for a field in another case, which Fields does not.
func caseVariant(b []byte) bool {
	found := false
	var walk func(v []byte)
	walk = func(v []byte) {
		Object(v, func(k string, m []byte) error {
			for _, name := range []string{"s", "b", "i", "i64", "u64", "ss", "raw", "in", "n"} {
				if k != name && strings.EqualFold(k, name) {
					found = true
				}
			}
			if len(m) > 0 && m[0] == '{' {
				walk(m)
			}
			return nil
		})
	}
	walk(b)
	return found
}

func checkFields(t *testing.T, b []byte) {
	if caseVariant(b) {
		return
	}
	want, werr := reference(b)
	got, err := readFields(b)
	if (err == nil) != (werr == nil) {
		t.Fatalf("Fields(%q): error %v, encoding/json: %v", b, err, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Fields(%q) = %+v, encoding/json %+v", b, got, want)
	}
}

func TestFieldsAsEncodingJSON(t *testing.T) {
	for _, s := range append(samples,
		`null`, ` null `, `{"s":null,"ss":null,"raw":null}`, `{"s":"x","s":"y"}`, `{"i":1.5,"s":"kept"}`,
		`{"ss":["a",1,"c"]}`, `{"ss":"x"}`, `{"in":{"s":"x","n":"bad"},"b":true}`, `{"in":null}`,
		`{"i":9223372036854775807}`, `{"u64":-1}`, `{"b":1}`, `{"raw":{"a":[1]}}`, `{"in":[1]}`,
		`{"S":"case"}`) {
		checkFields(t, []byte(s))
	}
}

func FuzzFields(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"s":"x","b":true,"i":-3,"i64":5,"u64":7,"ss":["a","b"],"raw":[1,2],"in":{"s":"y","n":2}}`))
	f.Fuzz(checkFields)
}
