package e2e

// lucid's opencode plugin as an npm package (plugins/opencode), packed
// with npm pack and named in the project's opencode.json "plugin" list by
// its tarball, the way a user names a published one by its name.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// packOpencodePlugin packs plugins/opencode into dir and returns the
// tarball's path.
func packOpencodePlugin(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("npm", "pack", "--pack-destination", dir, filepath.Join(repoTop(t), "plugins", "opencode"))
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("npm pack plugins/opencode: %v", err)
	}
	lines := strings.Fields(string(out))
	return filepath.Join(dir, lines[len(lines)-1])
}

// With the package alone (no .opencode/plugins/lucid.js), a session gets
// the digest and a write into another agent's claim is denied.
func TestOpencodePackageGuards(t *testing.T) {
	needOpencode(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init")
	e.run("lucid", "uninstall") // .lucid/ stays, no client's hooks
	w := withOpencode(t, e)
	// opencode installs a plugin named by package (or by a file: tarball
	// spec) from the registry at start, which it cannot reach here: npm
	// installs the tarball, offline, and opencode.json names the installed
	// package's entry by its file:// URL, which opencode loads as it is.
	dir := t.TempDir()
	tgz := packOpencodePlugin(t, dir)
	prefix := filepath.Join(dir, "prefix")
	if out, err := exec.Command("npm", "install", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, tgz).CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", tgz, err, out)
	}
	entry := filepath.Join(prefix, "node_modules", "@lucid-dev", "opencode", "index.js")
	w.write(w.path("opencode.json"), `{"plugin": ["file://`+entry+`"]}`+"\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "the plugin package")
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "src/auth.go", "content": "package auth\n"}),
		cc.Say("Lead done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.opencode(srv, "[[oc-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 lead requests, got %d\n%s\nstderr:\n%s", len(reqs), srv.Dump(), clip(res.stderr, 4000))
	}
	if n := strings.Count(reqs[0].Chat.SystemText(), digestHeader); n != 1 {
		t.Errorf("the first request holds the digest %d times, want 1\nstderr:\n%s", n, clip(res.stderr, 4000))
	}
	if r, ok := reqs[1].Chat.LastToolResult(); !ok || !strings.Contains(r.Text(), "lucid: src/auth.go is claimed by") {
		t.Errorf("the write was not denied with lucid's reason: %q", r.Text())
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}
