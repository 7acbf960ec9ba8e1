package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// recPlugin is a plugin that appends each hook's name, input and output
// (as received) as one JSON line to $LUCID_E2E_REC: what the harness
// tests read to see that a project plugin loads and what it is given.
// Its one export is the plugin: opencode skips a file with any other.
const recPlugin = `import { appendFileSync } from "node:fs";
export const Rec = async () => {
  const log = (hook, input, output) => { try { appendFileSync(process.env.LUCID_E2E_REC, JSON.stringify({ hook, input, output }) + "\n"); } catch {} };
  const on = (hook) => async (input, output) => log(hook, input, output);
  return {
    event: async ({ event }) => log("event", event),
    "chat.message": on("chat.message"),
    "tool.execute.before": on("tool.execute.before"),
    "tool.execute.after": on("tool.execute.after"),
    "shell.env": on("shell.env"),
  };
};
`

// recorded is one line of recPlugin's log.
type recorded struct {
	Hook  string `json:"hook"`
	Input struct {
		Type      string `json:"type"` // an event's
		Tool      string `json:"tool"`
		SessionID string `json:"sessionID"`
		CallID    string `json:"callID"`
	} `json:"input"`
	Output struct {
		Args map[string]any `json:"args"` // tool.execute.before's: what will run
	} `json:"output"`
	raw json.RawMessage
}

func readRecorded(t *testing.T, path string) []recorded {
	t.Helper()
	lines, err := readLines(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []recorded
	for _, l := range lines {
		var r recorded
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("plugin log line %s: %v", l, err)
		}
		r.raw = append(json.RawMessage(nil), l...)
		out = append(out, r)
	}
	return out
}

// harnessScript has the model run a bash command that writes a file,
// write a new file, edit a committed one, and say done.
func harnessScript(marker string) *cc.Script {
	return &cc.Script{Name: "lead", Marker: marker, Steps: []cc.Step{
		cc.CallTool("bash", map[string]any{"command": "echo hi > out.txt"}),
		cc.CallTool("write", map[string]any{"filePath": "new.txt", "content": "new file\n"}),
		cc.CallTool("edit", map[string]any{"filePath": "README.md", "oldString": "# scratch", "newString": "# edited"}),
		cc.Say("All done."),
	}}
}

// TestOpencodeHarness: the real opencode runs offline against the
// scripted model, its bash, write and edit tools change the work tree,
// and a project plugin in .opencode/plugins/ loads and sees each tool
// call with its session and call ids.
func TestOpencodeHarness(t *testing.T) {
	harnessRun(t, newOpencode(t))
}

// TestKiloHarness: the same with the real Kilo Code CLI and its
// .kilo/plugins/.
func TestKiloHarness(t *testing.T) {
	harnessRun(t, newKilo(t))
}

func harnessRun(t *testing.T, w *opencodeWorld) {
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	w.writePlugin("rec.js", recPlugin)
	srv := cc.New(harnessScript("[[harness-lead]]"))
	defer srv.Close()
	res, err := w.opencodeRunEnv(srv, "[[harness-lead]] write the files", []string{"LUCID_E2E_REC=" + rec})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(w.read("out.txt")); got != "hi" {
		t.Errorf("out.txt = %q, want hi (bash ran)", got)
	}
	if got := w.read("new.txt"); got != "new file\n" {
		t.Errorf("new.txt = %q (write ran)", got)
	}
	if got := w.read("README.md"); !strings.HasPrefix(got, "# edited") {
		t.Errorf("README.md = %q, want it edited", got)
	}
	steps, side := 0, 0
	for _, r := range srv.Requests() {
		switch {
		case r.Side:
			side++
		case r.Conversation == "lead":
			steps++
		}
	}
	if steps != 4 {
		t.Errorf("the lead's script was asked %d times, want 4:\n%s", steps, srv.Dump())
	}
	// opencode asks small_model for the session's title, without tools;
	// Kilo 7.7.9 asks for none.
	if want := map[bool]int{false: 1, true: 0}[w.kilo]; side != want {
		t.Errorf("%d side requests (the title's), want %d:\n%s", side, want, srv.Dump())
	}
	if !strings.Contains(res.stdout+res.stderr, "All done.") {
		t.Logf("the final text is not in the output:\nstdout:\n%s", clip(res.stdout, 2000))
	}
	all := readRecorded(t, rec)
	if len(all) == 0 {
		t.Fatalf("the plugin in %s recorded nothing: it did not load\nstderr:\n%s", w.pluginDir(), clip(res.stderr, 4000))
	}
	var tools []string
	session := ""
	for _, r := range all {
		if r.Hook != "tool.execute.before" {
			continue
		}
		tools = append(tools, r.Input.Tool)
		if r.Input.SessionID == "" || r.Input.CallID == "" {
			t.Errorf("tool.execute.before without sessionID or callID: %s", r.raw)
		}
		if session == "" {
			session = r.Input.SessionID
		} else if r.Input.SessionID != session {
			t.Errorf("tool.execute.before in session %s, the run's first was %s", r.Input.SessionID, session)
		}
	}
	if got := strings.Join(tools, " "); got != "bash write edit" {
		t.Errorf("tool.execute.before fired for %q, want bash write edit", got)
	} else if cmd := all[firstHook(all, "tool.execute.before")].Output.Args["command"]; cmd != "echo hi > out.txt" {
		t.Errorf("tool.execute.before of bash has args.command %q", cmd)
	}
	for _, h := range []string{"chat.message", "tool.execute.after", "shell.env"} {
		if firstHook(all, h) < 0 {
			t.Errorf("%s never fired", h)
		}
	}
	if d := os.Getenv("LUCID_E2E_PAYLOADS"); d != "" {
		w.savePayloads(d, all)
	}
}

// firstHook is the index of hook's first record, -1 when it has none.
func firstHook(all []recorded, hook string) int {
	for i, r := range all {
		if r.Hook == hook {
			return i
		}
	}
	return -1
}

// savePayloads writes the first record of each hook (of each tool, each
// event type) the plugin recorded into dir, as HOOK[-TOOL].json, with
// the world's folders as /home/dev/repo and /home/dev: how
// testdata/payloads/{opencode,kilo}-* were made.
func (w *opencodeWorld) savePayloads(dir string, all []recorded) {
	os.MkdirAll(dir, 0o755)
	paths := strings.NewReplacer(w.repo, "/home/dev/repo", w.home, "/home/dev")
	seen := map[string]bool{}
	for _, r := range all {
		name := r.Hook
		if r.Hook == "event" {
			name = "event-" + r.Input.Type
		} else if r.Input.Tool != "" {
			name += "-" + r.Input.Tool
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		var v any
		json.Unmarshal([]byte(paths.Replace(string(r.raw))), &v)
		b, _ := json.MarshalIndent(v, "", "  ")
		os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644)
	}
}

// TestStraceOffHost: the connections strace logs are sorted as the
// opencode harness needs: loopback and local sockets pass, anything else
// is reported.
func TestStraceOffHost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "connect.strace")
	lines := []string{
		`999   connect(22, {sa_family=AF_INET, sin_port=htons(35971), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)`,
		`12 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)`,
		`13 connect(4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0`,
		`14 connect(5, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("104.18.1.1")}, 16) = -1 EINPROGRESS`,
		`15 connect(6, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = 0`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := straceOffHost(path)
	if len(got) != 2 || !strings.Contains(got[0], "104.18.1.1") || !strings.Contains(got[1], "2606:4700::1") {
		t.Errorf("off host: %q, want the two lines to 104.18.1.1 and 2606:4700::1", got)
	}
}
