package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// npmPacked is what scripts/npm-pack made for the npm tests, once.
var npmPacked struct {
	tarballs []string
	err      error
}

// npmPackages packs lucid's npm packages for this platform (the main one
// and this platform's), once for the suite, or skips where npm is missing.
func npmPackages(t *testing.T) []string {
	t.Helper()
	for _, tool := range []string{"npm", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH: lucid's npm packages cannot be packed nor installed here", tool)
		}
	}
	if runtime.GOOS == "windows" {
		t.Skip("scripts/npm-pack is a POSIX sh script")
	}
	if npmPacked.tarballs == nil && npmPacked.err == nil {
		dir, err := os.MkdirTemp("", "lucid-npm-pack")
		if err == nil {
			npmPacked.tarballs, npmPacked.err = gittest.NpmPack(dir, "0.0.0-e2e")
		} else {
			npmPacked.err = err
		}
		// The folder stays for the suite's other npm tests; the system's
		// temp cleaner takes it.
	}
	if npmPacked.err != nil {
		t.Fatal(npmPacked.err)
	}
	return npmPacked.tarballs
}

// npmInstall installs @lucid-dev/lucid from a loopback registry serving
// the tarballs into a fresh prefix, with npm's extra args, and returns the
// prefix, what npm asked of the registry, and how long npm took.
func npmInstall(t *testing.T, tarballs []string, args ...string) (prefix string, asked []string, took time.Duration) {
	t.Helper()
	reg, err := gittest.ServeNpm(tarballs)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	prefix = t.TempDir()
	start := time.Now()
	if _, err := gittest.NpmInstall("npm", prefix, reg.URL, args...); err != nil {
		t.Fatal(err)
	}
	return prefix, reg.Asked(), time.Since(start)
}

// isScript reports whether the file at path starts with #!, as the node
// launcher does and a native binary does not.
func isScript(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.HasPrefix(b, []byte("#!"))
}

// A person installs lucid with `npm i -g @lucid-dev/lucid` from a registry
// (on loopback, serving the tarballs scripts/npm-pack made): npm installs
// this platform's package, and no other, and asks nothing of any other
// host; `lucid` on PATH is then the native binary, not node. lucid version
// runs, lucid init in a repository registers Claude Code's hooks, the
// registered PreToolUse command, run as Claude Code runs it, finds that
// binary and denies an Edit on a person's claim; lucid doctor says lucid
// came from npm; npm rm -g takes it all away.
func TestNpmInstall(t *testing.T) {
	tarballs := npmPackages(t)
	var sizes []string
	for _, tb := range tarballs {
		if fi, err := os.Stat(tb); err == nil {
			sizes = append(sizes, filepath.Base(tb)+" "+kb(fi.Size()))
		}
	}
	t.Logf("packed: %s", strings.Join(sizes, ", "))
	prefix, asked, took := npmInstall(t, tarballs)
	t.Logf("npm install -g from the loopback registry: %s; npm asked %s", took.Round(time.Millisecond), strings.Join(asked, ", "))

	platform := "@lucid-dev/lucid-" + npmOS() + "-" + npmCPU()
	var tarballsAsked []string
	for _, a := range asked {
		if strings.Contains(a, "/-/tarballs/") {
			tarballsAsked = append(tarballsAsked, filepath.Base(a))
		}
	}
	if len(tarballsAsked) != 2 {
		t.Errorf("npm fetched the tarballs %v, want the main one's and %s's alone", tarballsAsked, platform)
	}

	bin := filepath.Join(prefix, "bin")
	lucid := filepath.Join(bin, "lucid")
	real, err := filepath.EvalSymlinks(lucid)
	if err != nil {
		t.Fatalf("no lucid where npm links bins: %v", err)
	}
	native := filepath.Join(prefix, "lib", "node_modules", "@lucid-dev", "lucid", "node_modules", platform, "bin", "lucid")
	if isScript(t, real) {
		t.Fatalf("lucid on PATH (%s) is still the node launcher: the postinstall did not put the native binary in its place", real)
	}
	if !gitstore.SameFile(real, native) {
		if a, b := mustRead(t, real), mustRead(t, native); !bytes.Equal(a, b) {
			t.Errorf("lucid on PATH (%s) is neither %s nor a copy of it", real, native)
		}
	}
	for _, name := range []string{"lucid-view"} {
		if v, err := filepath.EvalSymlinks(filepath.Join(bin, name)); err != nil || isScript(t, v) {
			t.Errorf("%s on PATH is not the native binary (%v)", name, err)
		}
	}

	// A fresh HOME, the suite's environment without an agent's, and npm's
	// bin folder first on PATH.
	w := newWorld(t, t.TempDir())
	repo := w.repo
	var env []string
	for _, kv := range w.environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "PATH" && !strings.HasPrefix(k, "LUCID_") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(stdin []byte, name string, args ...string) string {
		t.Helper()
		if name == "lucid" {
			name = lucid // exec looks names up on this process's PATH, not env's
		}
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run(nil, "lucid", "version"); !strings.HasPrefix(out, "lucid ") {
		t.Errorf("lucid version printed %q", out)
	}
	run(nil, "git", "init", "-q")
	os.MkdirAll(filepath.Join(repo, "src"), 0o755)
	os.WriteFile(filepath.Join(repo, "src", "auth.go"), []byte("package auth\n"), 0o644)
	run(nil, "lucid", "init")

	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(repo, ".claude", "settings.json")), &settings); err != nil {
		t.Fatal(err)
	}
	var command string
	for _, m := range settings.Hooks["PreToolUse"] {
		for _, h := range m.Hooks {
			if strings.Contains(h.Command, "lucid hook PreToolUse") {
				command = h.Command
			}
		}
	}
	if command == "" {
		t.Fatalf("lucid init registered no PreToolUse hook: %+v", settings.Hooks)
	}
	// The hook's command names lucid on PATH, which is the native binary.
	if got := strings.TrimSpace(run(nil, "sh", "-c", "command -v lucid")); got != lucid {
		t.Errorf("the hook's `command -v lucid` finds %s, want npm's %s", got, lucid)
	}

	run(nil, "lucid", "claim", "src/**", "--for", "the npm test")
	payload := map[string]any{}
	if err := json.Unmarshal(mustRead(t, "../testdata/payloads/claude-code-2.1.332/PreToolUse-Edit-lead.json"), &payload); err != nil {
		t.Fatal(err)
	}
	payload["cwd"] = repo
	payload["tool_input"].(map[string]any)["file_path"] = filepath.Join(repo, "src", "auth.go")
	stdin, _ := json.Marshal(payload)
	out := run(stdin, "sh", "-c", command)
	if !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("the PreToolUse hook through npm's lucid let an Edit of a claimed file pass:\n%s", out)
	}

	doctor := exec.Command(lucid, "doctor")
	doctor.Dir, doctor.Env = repo, env
	got, _ := doctor.CombinedOutput() // some checks fail in a bare scratch repository
	for _, line := range strings.Split(string(got), "\n") {
		if strings.Contains(line, "lucid on PATH") {
			t.Logf("lucid doctor: %s", strings.TrimSpace(line))
		}
	}
	if !strings.Contains(string(got), "installed by npm") || !strings.Contains(string(got), "the native binary") {
		t.Errorf("lucid doctor does not say lucid came from npm as the native binary:\n%s", got)
	}

	// npm rm -g takes both binaries away, the native ones put in the
	// launchers' place with the package's folder.
	if _, err := gittest.NpmUninstall("npm", prefix); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{lucid, filepath.Join(bin, "lucid-view"), filepath.Join(prefix, "lib", "node_modules", "@lucid-dev", "lucid")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there after npm rm -g", p)
		}
	}
}

// Where npm runs no install script (--ignore-scripts; pnpm and bun run none
// of a dependency's by default), `lucid` on PATH is the node launcher: it
// runs the native binary, and on its first run puts that binary in its own
// place, so that the hooks start no node from then on.
func TestNpmInstallWithoutScripts(t *testing.T) {
	tarballs := npmPackages(t)
	prefix, _, _ := npmInstall(t, tarballs, "--ignore-scripts")
	lucid := filepath.Join(prefix, "bin", "lucid")
	real, err := filepath.EvalSymlinks(lucid)
	if err != nil {
		t.Fatal(err)
	}
	if !isScript(t, real) {
		t.Fatalf("with --ignore-scripts, %s is already native: the test tries nothing", real)
	}
	cmd := exec.Command(lucid, "version")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(prefix, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "lucid ") {
		t.Fatalf("lucid version through the launcher: %v\n%s", err, out)
	}
	if isScript(t, real) {
		t.Errorf("after its first run the launcher %s is still in place: the hooks would start node", real)
	}
}

func npmOS() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

func npmCPU() string {
	if runtime.GOARCH == "amd64" {
		return "x64"
	}
	return runtime.GOARCH
}

func kb(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
