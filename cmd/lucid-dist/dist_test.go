package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// root is the module's folder, from this package's.
var root = filepath.Join("..", "..")

// hostPlatform is the one platform the tests build for real: six builds
// take minutes, one the time of a link.
var hostPlatform = platform{runtime.GOOS, runtime.GOARCH}

// served is the folder the loopback server serves, laid out as
// LUCID_INSTALL_BASE expects: good/v0.1.0/, good/v0.2.0/ and good/latest/
// (a second build of v0.2.0), each make dist's output as it is, and
// tampered/latest/, v0.2.0 with a byte of its archive changed.
var served struct {
	once sync.Once
	dir  string
	url  string
	took time.Duration
	err  error
}

// releases runs scripts/dist three times, for this machine's platform
// alone, and serves what it wrote on the loopback address.
func releases(t *testing.T) (dir, url string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("scripts/dist and install.sh are sh scripts")
	}
	served.once.Do(func() {
		dir, err := os.MkdirTemp("", "lucid-dist-test-*")
		if err != nil {
			served.err = err
			return
		}
		served.dir = dir
		for _, r := range []struct{ version, folder string }{
			{"v0.1.0", "good/v0.1.0"}, {"v0.2.0", "good/v0.2.0"}, {"v0.2.0", "good/latest"},
		} {
			start := time.Now()
			if served.err = runDist(r.version, filepath.Join(dir, r.folder)); served.err != nil {
				return
			}
			served.took = time.Since(start)
		}
		served.err = copyDir(filepath.Join(dir, "good/latest"), filepath.Join(dir, "tampered/latest"))
		if served.err != nil {
			return
		}
		archive := filepath.Join(dir, "tampered/latest", archiveName("v0.2.0", hostPlatform))
		data, err := os.ReadFile(archive)
		if err != nil {
			served.err = err
			return
		}
		data[len(data)/2] ^= 1
		if served.err = os.WriteFile(archive, data, 0o644); served.err != nil {
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			served.err = err
			return
		}
		go http.Serve(ln, http.FileServer(http.Dir(dir)))
		served.url = "http://" + ln.Addr().String()
	})
	if served.err != nil {
		t.Fatal(served.err)
	}
	return served.dir, served.url
}

// runDist is make dist for one version and this machine's platform, at a
// fixed time so that the runs need not agree with the checkout's commit.
func runDist(version, out string) error {
	cmd := exec.Command(filepath.Join(root, "scripts", "dist"), out)
	cmd.Env = append(os.Environ(), "VERSION="+version, "SOURCE_DATE_EPOCH=1767323045",
		"LUCID_DIST_PLATFORMS="+hostPlatform.os+"/"+hostPlatform.arch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scripts/dist %s: %v\n%s", version, err, out)
	}
	return nil
}

func copyDir(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if served.dir != "" {
		os.RemoveAll(served.dir)
	}
	os.Exit(code)
}

// Two runs of scripts/dist on one commit write the same bytes, SHA256SUMS
// is true of the archives, the formula names them with their sums, and
// the binaries say the version, commit and date they were stamped with.
func TestDistIsReproducible(t *testing.T) {
	dir, _ := releases(t)
	t.Logf("scripts/dist for %s/%s: %v a run, warm", hostPlatform.os, hostPlatform.arch, served.took.Round(100*time.Millisecond))
	a, b := filepath.Join(dir, "good/v0.2.0"), filepath.Join(dir, "good/latest")
	sameFiles(t, a, b)
	sums := readSums(t, a)
	if len(sums) != 1 {
		t.Errorf("SHA256SUMS lists %d archives, want this platform's alone", len(sums))
	}
	for _, f := range []string{"install.sh", "lucid.rb", archiveName("v0.2.0", hostPlatform)} {
		if _, err := os.Stat(filepath.Join(a, f)); err != nil {
			t.Error(err)
		}
	}
	if sha256sum, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(sha256sum, "-c", "SHA256SUMS")
		cmd.Dir = a
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c SHA256SUMS: %v\n%s", err, out)
		}
	}
	checkFormula(t, filepath.Join(a, "lucid.rb"), "https://github.com/lucid-dev/lucid/releases/download/v0.2.0",
		"v0.2.0", []platform{hostPlatform}, sums)
}

// uname's answers for this machine, as install.sh reads them.
func hostUname(t *testing.T) (s, m string) {
	s = map[string]string{"linux": "Linux", "darwin": "Darwin"}[runtime.GOOS]
	m = map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	if s == "" || m == "" {
		t.Skipf("install.sh has no archive for %s/%s to install", runtime.GOOS, runtime.GOARCH)
	}
	return s, m
}

// toolbox is a folder that is the whole PATH install.sh runs with: the
// tools it says it needs (and sh, to be piped to), found on this machine, one of each pair given
// by fetcher and hasher, and a uname that answers unameS and unameM.
func toolbox(t *testing.T, unameS, unameM, fetcher, hasher string) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range []string{"sh", "mktemp", "rm", "awk", "cut", "mkdir", "tar", "gzip", "cp", "chmod", "mv", "cat", fetcher, hasher} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s on this machine", tool)
		}
		if err := os.Symlink(path, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	uname := fmt.Sprintf("#!/bin/sh\ncase $1 in -s) echo %s ;; -m) echo %s ;; *) exit 1 ;; esac\n", unameS, unameM)
	if err := os.WriteFile(filepath.Join(dir, "uname"), []byte(uname), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shells are the shells install.sh is run with: sh, and dash and bash
// (--posix) where they are installed and sh is not already them.
func shells(t *testing.T) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, sh := range [][]string{{"sh"}, {"dash"}, {"bash", "--posix"}} {
		path, err := exec.LookPath(sh[0])
		if err != nil {
			t.Logf("no %s here: install.sh is not run with it", sh[0])
			continue
		}
		real, _ := filepath.EvalSymlinks(path)
		if seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, append([]string{path}, sh[1:]...))
	}
	return out
}

// install is one run of install.sh.
type install struct {
	home, path, base string
	args             []string
}

func (in install) run(t *testing.T, shell []string) (stdout, stderr string, err error) {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join(root, "install.sh"))
	cmd := exec.Command(shell[0], append(append(shell[1:], script), in.args...)...)
	cmd.Dir = in.home
	cmd.Env = []string{"HOME=" + in.home, "PATH=" + in.path, "LUCID_INSTALL_BASE=" + in.base, "TMPDIR=" + os.TempDir()}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// installed is what `lucid version` says of the lucid in dir ("" where
// there is none), failing where lucid-view is not beside it.
func installed(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(dir, "lucid"), "version").Output()
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "lucid-view")); err != nil {
		t.Errorf("lucid is in %s but not lucid-view: %v", dir, err)
	}
	return strings.TrimSpace(string(out))
}

// install.sh end to end against make dist's output on a loopback server,
// from a fresh HOME with a PATH of the tools it needs and nothing else.
func TestInstallScript(t *testing.T) {
	_, url := releases(t)
	unameS, unameM := hostUname(t)
	good, tampered := url+"/good", url+"/tampered"
	otherArch := map[string]string{"x86_64": "aarch64", "aarch64": "x86_64"}[unameM]
	v1 := "lucid v0.1.0 ("
	v2 := "lucid v0.2.0 ("

	type check func(t *testing.T, home, stdout, stderr string, err error)
	succeeds := func(dir, version string) check {
		return func(t *testing.T, home, stdout, stderr string, err error) {
			if err != nil {
				t.Fatalf("install.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
			}
			if got := installed(t, filepath.Join(home, dir)); !strings.HasPrefix(got, version) {
				t.Errorf("~/%s/lucid says %q, want %s...", dir, got, version)
			}
			if !strings.Contains(stdout, "    lucid init") || !strings.Contains(stdout, "    lucid doctor") {
				t.Errorf("install.sh does not print the next commands:\n%s", stdout)
			}
			if stderr != "" {
				t.Errorf("install.sh wrote to stderr:\n%s", stderr)
			}
			leftovers, _ := filepath.Glob(filepath.Join(home, dir, ".*install*"))
			if len(leftovers) > 0 {
				t.Errorf("install.sh left %q behind", leftovers)
			}
		}
	}
	refuses := func(reason string, left string) check {
		return func(t *testing.T, home, stdout, stderr string, err error) {
			if err == nil {
				t.Fatalf("install.sh succeeded, want it refused: %s\n%s", reason, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "lucid install: ") || !strings.Contains(stderr, reason) {
				t.Errorf("install.sh said\n%s\nwant one line saying %q", stderr, reason)
			}
			if got := installed(t, filepath.Join(home, ".local/bin")); !strings.HasPrefix(got, left) || left == "" && got != "" {
				t.Errorf("after the refusal ~/.local/bin/lucid says %q, want %q", got, left)
			}
		}
	}
	says := func(c check, want ...string) check {
		return func(t *testing.T, home, stdout, stderr string, err error) {
			c(t, home, stdout, stderr, err)
			for _, w := range want {
				w = strings.ReplaceAll(w, "HOME", home)
				if !strings.Contains(stdout, w) {
					t.Errorf("install.sh did not say %q:\n%s", w, stdout)
				}
			}
		}
	}
	lacks := func(c check, not string) check {
		return func(t *testing.T, home, stdout, stderr string, err error) {
			c(t, home, stdout, stderr, err)
			if strings.Contains(stdout, not) {
				t.Errorf("install.sh said %q:\n%s", not, stdout)
			}
		}
	}

	for _, tc := range []struct {
		name          string
		before        []string // install.sh's arguments for an install first
		args          []string
		base          string
		uname         [2]string
		fetch, hasher string
		onPath        bool // ~/.local/bin on PATH
		check         check
	}{
		{name: "fresh HOME", check: says(succeeds(".local/bin", v2),
			"Installed lucid and lucid-view in HOME/.local/bin: "+v2, "HOME/.local/bin is not on PATH", `export PATH="HOME/.local/bin:$PATH"`)},
		{name: "folder on PATH", onPath: true, check: lacks(succeeds(".local/bin", v2), "not on PATH")},
		{name: "wget and shasum", fetch: "wget", hasher: "shasum", check: succeeds(".local/bin", v2)},
		{name: "--version", args: []string{"--version", "v0.1.0"}, check: succeeds(".local/bin", v1)},
		{name: "--version without its v", args: []string{"--version=0.1.0"}, check: succeeds(".local/bin", v1)},
		{name: "older install replaced", before: []string{"--version", "v0.1.0"},
			check: says(succeeds(".local/bin", v2), "Replaced lucid and lucid-view in HOME/.local/bin:", "was "+v1, "now "+v2)},
		{name: "--prefix", args: []string{"--prefix", "tools/bin/"}, check: says(succeeds("tools/bin", v2), "HOME/tools/bin is not on PATH")},
		{name: "tampered archive", base: tampered, check: refuses("does not match SHA256SUMS", "")},
		{name: "tampered archive over an install", before: []string{"--version", "v0.1.0"}, base: tampered,
			check: refuses("does not match SHA256SUMS", v1)},
		{name: "platform missing from the release", uname: [2]string{unameS, otherArch}, check: refuses("has no archive for", "")},
		{name: "unknown OS", uname: [2]string{"SunOS", unameM}, check: refuses("no lucid release for the OS SunOS", "")},
		{name: "unknown architecture", uname: [2]string{unameS, "riscv64"}, check: refuses("no lucid release for the architecture riscv64", "")},
		{name: "Windows", uname: [2]string{"MINGW64_NT-10.0", unameM}, check: refuses("on Windows, unzip", "")},
		{name: "no such version", args: []string{"--version", "v9.9.9"}, check: refuses("cannot download "+good+"/v9.9.9/SHA256SUMS", "")},
		{name: "bad argument", args: []string{"--frobnicate"}, check: refuses("unknown argument --frobnicate", "")},
	} {
		for _, shell := range shells(t) {
			t.Run(tc.name+"/"+filepath.Base(shell[0]), func(t *testing.T) {
				t.Parallel()
				home := t.TempDir()
				uname := tc.uname
				if uname[0] == "" {
					uname = [2]string{unameS, unameM}
				}
				fetch, hasher := tc.fetch, tc.hasher
				if fetch == "" {
					fetch, hasher = "curl", "sha256sum"
				}
				path := toolbox(t, uname[0], uname[1], fetch, hasher)
				if tc.before != nil {
					pre := install{home: home, path: toolbox(t, unameS, unameM, "curl", "sha256sum"), base: good, args: tc.before}
					if out, errOut, err := pre.run(t, shell); err != nil {
						t.Fatalf("the install before: %v\n%s%s", err, out, errOut)
					}
				}
				if tc.onPath {
					path += ":" + filepath.Join(home, ".local/bin")
				}
				base := tc.base
				if base == "" {
					base = good
				}
				start := time.Now()
				stdout, stderr, err := install{home: home, path: path, base: base, args: tc.args}.run(t, shell)
				if tc.name == "fresh HOME" {
					t.Logf("install.sh from the loopback server: %v", time.Since(start).Round(time.Millisecond))
				}
				tc.check(t, home, stdout, stderr, err)
			})
		}
	}
}

// The one-line install as a user types it: the script itself downloaded
// with curl and piped to sh.
func TestInstallScriptPiped(t *testing.T) {
	_, url := releases(t)
	unameS, unameM := hostUname(t)
	home := t.TempDir()
	path := toolbox(t, unameS, unameM, "curl", "sha256sum")
	cmd := exec.Command("/bin/sh", "-c", `curl -fsSL "$0/install.sh" | sh`, url+"/good/latest")
	cmd.Env = []string{"HOME=" + home, "PATH=" + path, "LUCID_INSTALL_BASE=" + url + "/good"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("curl | sh: %v\n%s", err, out)
	}
	if got := installed(t, filepath.Join(home, ".local/bin")); !strings.HasPrefix(got, "lucid v0.2.0 (") {
		t.Errorf("curl | sh installed %q", got)
	}
}

// install.sh and scripts/dist are POSIX sh as shellcheck reads it.
func TestScriptsShellcheck(t *testing.T) {
	shellcheck, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("no shellcheck on PATH (apt-get install shellcheck): the scripts are unchecked")
	}
	cmd := exec.Command(shellcheck, "--shell=sh", "install.sh", "scripts/dist")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}
