package installers

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
)

// plainSettings reports whether init then uninstall must give doc back
// byte for byte: an object with members, no lucid hooks, and no empty
// "hooks" or event list (which uninstall cannot tell from lucid's own).
func plainSettings(doc []byte) bool {
	if checkObject(doc) != nil || len(children(doc, root(doc))) == 0 {
		return false
	}
	s := &Settings{client: testClient, doc: doc}
	if s.HasLucid() {
		return false
	}
	h, ok := member(doc, root(doc), "hooks")
	if !ok {
		return true
	}
	if !h.isObject || len(children(doc, h)) == 0 {
		return false
	}
	for _, ev := range children(doc, h) {
		if !ev.isArr || len(children(doc, ev)) == 0 {
			return false
		}
	}
	// A key given twice: Claude Code reads the last, lucid edits the first.
	var seen = map[string]bool{}
	for _, m := range children(doc, root(doc)) {
		if seen[m.key] {
			return false
		}
		seen[m.key] = true
	}
	for _, m := range children(doc, h) {
		if seen["hooks."+m.key] {
			return false
		}
		seen["hooks."+m.key] = true
	}
	return true
}

// FuzzSettingsRoundTrip: on any settings object, registering gives valid
// JSON with every event registered, a second registration changes
// nothing, and unregistering gives the bytes back.
func FuzzSettingsRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`{"a":1}`, "{\n  \"a\": [1, 2],\n  \"b\": {}\n}\n", "{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [ {\"hooks\": []} ]\r\n\t}\r\n}",
		`{ "hooks" : { "PreToolUse" : [ { "matcher" : "Bash" , "hooks" : [ { "type" : "command" , "command" : "x" } ] } ] } }`,
		"{\"s\": \"a\\\"b}\\\\\", \"n\": -1.5e3, \"t\": [true, false, null]}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !plainSettings(doc) {
			return
		}
		orig := bytes.Clone(doc)
		s := &Settings{client: testClient, doc: bytes.Clone(doc)}
		if s.register() != len(testClient.Events) {
			t.Fatalf("not every event registered in %q", orig)
		}
		if !json.Valid(s.doc) {
			t.Fatalf("%q became invalid JSON:\n%s", orig, s.doc)
		}
		if got := s.registered(); len(got) != len(testClient.Events) {
			t.Fatalf("%q: registered %v after register:\n%s", orig, got, s.doc)
		}
		var before, after map[string]any
		json.Unmarshal(orig, &before)
		json.Unmarshal(s.doc, &after)
		for k, v := range before {
			if k != "hooks" && !sameValue(v, after[k]) {
				t.Fatalf("%q: member %q changed:\n%s", orig, k, s.doc)
			}
		}
		once := bytes.Clone(s.doc)
		if s.register() != 0 || !bytes.Equal(s.doc, once) {
			t.Fatalf("a second register changed %q", once)
		}
		if !s.Unregister() || !bytes.Equal(s.doc, orig) {
			t.Fatalf("round trip:\n got %q\nwant %q", s.doc, orig)
		}
	})
}

func sameValue(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// What lucid inserts is laid out like its neighbours: on lines of their
// own at their indentation (tabs, CRLF kept), or on one line with the
// file's spacing.
func TestInsertFollowsTheLayout(t *testing.T) {
	group := []byte(`{"hooks":[{"type":"command","command":"c"}]}`)
	for _, tc := range []struct{ name, doc, want string }{
		{"tabs and CRLF",
			"{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\"hooks\": []}\r\n\t\t]\r\n\t}\r\n}\r\n",
			"{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\"hooks\": []},\r\n\t\t\t{\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"type\": \"command\",\r\n\t\t\t\t\t\t\"command\": \"c\"\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n"},
		{"a one-line list in an indented file",
			"{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": []}]\n  }\n}\n",
			"{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": []}, {\"hooks\": [{\"type\": \"command\", \"command\": \"c\"}]}]\n  }\n}\n"},
		{"one line, spaced",
			`{"a": 1}`,
			`{"a": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "c"}]}]}}`},
		{"minified",
			`{"a":1}`,
			`{"a":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"c"}]}]}}`},
		{"an empty hooks in an indented file",
			"{\n    \"hooks\": {}\n}",
			"{\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"c\"\n                    }\n                ]\n            }\n        ]\n    }\n}"},
	} {
		s := &Settings{client: testClient, doc: []byte(tc.doc)}
		s.appendGroup("Stop", group)
		if string(s.doc) != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, s.doc, tc.want)
		}
	}
}

// An element appended to a list member, the member added where it is
// missing, is read back as the list's last, laid out as the file is, and
// removing it gives the file back byte for byte.
func TestListMemberRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, doc, added string
		drop             bool
	}{
		{"a list in an indented file", "{\n  \"a\": 1,\n  \"l\": [\n    \"x\"\n  ]\n}\n", "{\n  \"a\": 1,\n  \"l\": [\n    \"x\",\n    \"new\"\n  ]\n}\n", false},
		{"one line", `{"a":1,"l":["x","y"],"b":2}`, `{"a":1,"l":["x","y","new"],"b":2}`, false},
		{"an empty list", "{\"l\": []}\n", "{\"l\": [\"new\"]}\n", false},
		{"no member", "{\n  \"a\": \"x\"\n}\n", "{\n  \"a\": \"x\",\n  \"l\": [\n    \"new\"\n  ]\n}\n", true},
		{"an empty object", "{}", `{"l": ["new"]}`, true},
	} {
		added := AppendElement([]byte(tc.doc), "l", []byte(`"new"`))
		if string(added) != tc.added {
			t.Errorf("%s: added\n got %q\nwant %q", tc.name, added, tc.added)
		}
		elems, found, err := ListMember(added, "l")
		if err != nil || !found || string(elems[len(elems)-1]) != `"new"` {
			t.Errorf("%s: read back %q %v %v", tc.name, elems, found, err)
			continue
		}
		if back := RemoveElement(added, "l", len(elems)-1, tc.drop); string(back) != tc.doc {
			t.Errorf("%s: removed\n got %q\nwant %q", tc.name, back, tc.doc)
		}
	}
	if _, found, err := ListMember([]byte(`{"l":{}}`), "l"); !found || err == nil || err.Error() != "l is not a list" {
		t.Errorf("an object taken for a list: %v %v", found, err)
	}
	if _, _, err := ListMember([]byte(`["l"]`), "l"); err == nil || err.Error() != "not a JSON object" {
		t.Errorf("a list taken for an object: %v", err)
	}
}

// testClient is a client whose settings take hooks as Claude Code's do:
// one for every event lucid handles, the tool events with a matcher.
var testClient = &Client{
	ID: "test", Name: "Test", Settings: ".test/settings.json", LocalSettings: ".test/settings.local.json",
	Events: func() []client.Event {
		var events []client.Event
		for _, e := range client.Events {
			m := ""
			if e == client.PreToolUse || e == client.PostToolUse {
				m = "Edit|Write|Bash"
			}
			events = append(events, client.Event{Name: e, Lucid: e, Matcher: m, Timeout: 10 * time.Second})
		}
		return events
	}(),
	TimeoutUnit: time.Second,
	Command: func(event string) string {
		return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook " + event
	},
	Default: true,
}
