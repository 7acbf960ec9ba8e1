package installers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Settings may hold comments, outside strings only.
func TestJSONC(t *testing.T) {
	in := "{\n// a comment\n\"a\": \"x // not one\", /* and\n this */ \"b\": \"q\\\"/*\"}"
	var v map[string]string
	if err := json.Unmarshal(StripJSONComments([]byte(in)), &v); err != nil || v["a"] != "x // not one" || v["b"] != `q"/*` {
		t.Errorf("%v %v\n%s", v, err, StripJSONComments([]byte(in)))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	var w map[string]string
	if err := ReadJSONC(path, true, &w); err != nil || w != nil {
		t.Errorf("missing file: %v %v", w, err)
	}
	os.WriteFile(path, []byte("// only this\n"), 0o644)
	if err := ReadJSONC(path, true, &w); err != nil || w != nil {
		t.Errorf("only comments: %v %v", w, err)
	}
	os.WriteFile(path, []byte(in), 0o644)
	if err := ReadJSONC(path, false, &w); err != nil || w["b"] != `q"/*` {
		t.Errorf("with comments: %v %v", w, err)
	}
	os.WriteFile(path, []byte("{bad"), 0o644)
	if err := ReadJSONC(path, true, &w); err == nil || !strings.Contains(err.Error(), path+": not valid JSON") {
		t.Errorf("bad file: %v", err)
	}
	if RealPath("/no/such/../path") != "/no/path" {
		t.Errorf("RealPath %q", RealPath("/no/such/../path"))
	}
}
