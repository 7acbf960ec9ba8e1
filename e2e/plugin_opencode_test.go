package e2e

// lucid's opencode plugin as an npm package (plugins/opencode), named in
// the project's opencode.json "plugin" list by its package name, the way a
// user names it, and installed by opencode itself at start.
//
// opencode 1.18.33 installs such a plugin with npm's own installer
// (Arborist, bundled in its binary, not an npm or bun on PATH) into
// $XDG_CACHE_HOME/opencode/packages/<spec>/ ("@lucid-dev/opencode@latest"
// for a bare name), once: a later start finds node_modules there and asks
// nothing. It reads the registry from the npm configuration of its
// environment (npm_config_registry, ~/.npmrc), with that cache folder as
// npm's working folder, so a project's .npmrc is not read. Here ~/.npmrc
// of the world's HOME names a loopback registry serving the packed
// package.

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// packOpencodePlugin packs plugins/opencode into dir and returns the
// tarball's path.
func packOpencodePlugin(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm on PATH: plugins/opencode cannot be packed here")
	}
	cmd := exec.Command("npm", "pack", "--pack-destination", dir, filepath.Join(repoTop(t), "plugins", "opencode"))
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("npm pack plugins/opencode: %v", err)
	}
	lines := strings.Fields(string(out))
	return filepath.Join(dir, lines[len(lines)-1])
}

// serveOpencodePackage packs plugins/opencode, serves it from a loopback
// registry and names that registry in the world's ~/.npmrc, where opencode
// reads it. It returns the registry and the tarball's file name.
func serveOpencodePackage(t *testing.T, w *opencodeWorld) (*gittest.NpmRegistry, string) {
	t.Helper()
	tgz := packOpencodePlugin(t, t.TempDir())
	reg, err := gittest.ServeNpm([]string{tgz})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	w.write(filepath.Join(w.home, ".npmrc"), "registry="+reg.URL+"/\n")
	return reg, filepath.Base(tgz)
}

// With the package alone (no .opencode/plugins/lucid.js), named in
// opencode.json, opencode installs it from the registry, and a session
// gets the digest and a write into another agent's claim is denied.
func TestOpencodeInstallsPackageByName(t *testing.T) {
	needOpencode(t)
	e := newScratch(t, t.TempDir())
	e.run("lucid", "init")
	e.run("lucid", "uninstall") // .lucid/ stays, no client's hooks
	w := withOpencode(t, e)
	reg, tgz := serveOpencodePackage(t, w)
	w.write(w.path("opencode.json"), `{"plugin": ["@lucid-dev/opencode"]}`+"\n")
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
	asked := reg.Asked()
	for _, want := range []string{"GET /@lucid-dev/opencode", "GET /-/tarballs/" + tgz} {
		if !slices.Contains(asked, want) {
			t.Errorf("opencode did not ask the registry %q; it asked:\n%s\nstderr:\n%s", want, strings.Join(asked, "\n"), clip(res.stderr, 4000))
		}
	}
	installed := filepath.Join(w.home, ".cache", "opencode", "packages", "@lucid-dev", "opencode@latest", "node_modules", "@lucid-dev", "opencode", "index.js")
	if _, err := os.Stat(installed); err != nil {
		t.Errorf("the package is not in opencode's cache: %v", err)
	}
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
	// The next start loads the installed package and asks nothing: a
	// newer one is had by deleting opencode's copy.
	again := &cc.Script{Name: "again", Marker: "[[oc-again]]", Steps: []cc.Step{cc.Say("Nothing to do.")}}
	srv2 := cc.New(again)
	defer srv2.Close()
	res = w.opencode(srv2, "[[oc-again]] Anything new?")
	if more := reg.Asked()[len(asked):]; len(more) > 0 {
		t.Errorf("opencode asked the registry again at its next start:\n%s", strings.Join(more, "\n"))
	}
	if reqs := srv2.Conversation("again"); len(reqs) != 1 || strings.Count(reqs[0].Chat.SystemText(), digestHeader) != 1 {
		t.Errorf("the next session did not get the digest once\n%s\nstderr:\n%s", srv2.Dump(), clip(res.stderr, 4000))
	}
}

// Where a teammate ran lucid init (.opencode/plugins/lucid.js), opencode
// loads that plugin and the package both: the package stands aside, so
// that lucid runs once per event, and the session gets the digest once.
func TestOpencodePackageStandsAside(t *testing.T) {
	needOpencode(t)
	w := withOpencode(t, newScratch(t, t.TempDir()))
	w.run("lucid", "init", "--client", "opencode")
	reg, _ := serveOpencodePackage(t, w)
	w.write(w.path("opencode.json"), `{"plugin": ["@lucid-dev/opencode"]}`+"\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for opencode, and the plugin package")
	w.claimAs(otherAgent, "src/**", "rework auth")
	lead := &cc.Script{Name: "lead", Marker: "[[oc-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"filePath": "src/auth.go", "content": "package auth\n"}),
		cc.Say("Lead done."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	res := w.opencode(srv, "[[oc-lead]] Edit the auth code.")
	if !slices.Contains(reg.Asked(), "GET /@lucid-dev/opencode") {
		t.Fatalf("opencode did not install the package; the registry was asked:\n%s\nstderr:\n%s", strings.Join(reg.Asked(), "\n"), clip(res.stderr, 4000))
	}
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 lead requests, got %d\n%s\nstderr:\n%s", len(reqs), srv.Dump(), clip(res.stderr, 4000))
	}
	if n := strings.Count(reqs[0].Chat.SystemText(), digestHeader); n != 1 {
		t.Errorf("the first request holds the digest %d times, want 1", n)
	}
	runs := map[string]int{}
	for _, c := range w.calls() {
		if len(c.Args) > 0 && c.Args[0] == "hook" {
			runs[c.Args[len(c.Args)-1]]++
		}
	}
	if runs["SessionStart"] != 1 || runs["PreToolUse"] != 1 {
		t.Errorf("lucid ran %d times at the session's start and %d times before the write, want once each:\n%s",
			runs["SessionStart"], runs["PreToolUse"], w.callsText())
	}
	if r, ok := reqs[1].Chat.LastToolResult(); !ok || !strings.Contains(r.Text(), "lucid: src/auth.go is claimed by") {
		t.Errorf("the write was not denied with lucid's reason: %q", r.Text())
	}
}
