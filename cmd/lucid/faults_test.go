//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// TestFaultTable tries, as real processes, each way a pulled branch or a
// full disk can break the files lucid uses, and counts what must never happen:
// entries acknowledged (exit 0 and an id) but not in the log, hook calls
// still running at their registered timeout, and outputs holding the
// content of a file outside the repository. Every count must be 0. `go
// test -run TestFaultTable -v ./cmd/lucid` prints the table;
// LUCID_FAULT_TRIALS sets the trials per fault (default 3), and
// LUCID_FAULT_ONLY keeps only the faults whose name contains it.
func TestFaultTable(t *testing.T) {
	trials := 3
	if n, err := strconv.Atoi(os.Getenv("LUCID_FAULT_TRIALS")); err == nil && n > 0 {
		trials = n
	}
	secret := "lucid-secret-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte(secret+"\n"), 0o644)

	type fault struct {
		name string
		file string // relative to the top
		make func(path string) error
	}
	fifo := mkfifo
	link := func(to string) func(string) error { return func(p string) error { return os.Symlink(to, p) } }
	var faults []fault
	for _, file := range []string{gitstore.LogName, gitstore.PlanName, gitstore.DigestName, "src.go"} {
		faults = append(faults,
			fault{file + " a FIFO", file, fifo},
			fault{file + " → /dev/zero", file, link("/dev/zero")},
			fault{file + " → a file outside", file, link(outside)},
		)
	}
	faults = append(faults, fault{gitstore.PlanName + " → /etc/passwd", gitstore.PlanName, link("/etc/passwd")})

	only := os.Getenv("LUCID_FAULT_ONLY")
	// The faults run side by side: each has repositories of its own, and
	// most of a trial is waiting for lucid's processes.
	rows := make([]string, len(faults))
	t.Run("faults", func(t *testing.T) {
		for i, f := range faults {
			if !strings.Contains(f.name, only) {
				continue
			}
			t.Run(f.name, func(t *testing.T) {
				t.Parallel()
				rows[i] = faultRow(t, f.file, f.make, trials, secret)
				if !strings.HasSuffix(rows[i], "| 0 | 0 | 0 |\n") {
					t.Errorf("%s: %s", f.name, rows[i])
				}
			})
		}
	})
	var table strings.Builder
	fmt.Fprintf(&table, "\n| fault | trials | entries lost | hooks past their timeout | files read outside the repository |\n|---|---|---|---|---|\n")
	for i, f := range faults {
		if rows[i] != "" {
			fmt.Fprintf(&table, "| %s %s", f.name, rows[i])
		}
	}
	if !strings.Contains("full disk", only) {
	} else if full, ok := fullDiskTrials(t, trials); ok {
		table.WriteString(full)
	}
	t.Log(table.String())
}

// faultRow runs trials of one fault (make turns file, relative to the
// top, into it) and returns the rest of its row in the table: "| trials |
// lost | late | leaked |".
func faultRow(t *testing.T, file string, make func(string) error, trials int, secret string) string {
	var lost, late, leaked int
	for range trials {
		repo := newLucidRepo(t)
		os.WriteFile(repo.Abs("src.go"), []byte("package main\n"), 0o644)
		if out, err := lucidCmd(repo, "", "fact", "cited", "-e", "src.go:1").CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		path := repo.Abs(file)
		os.Remove(path)
		if err := make(path); err != nil {
			t.Fatal(err)
		}
		l, k, o := tryFault(t, repo, secret)
		lost, late, leaked = lost+l, late+k, leaked+o
		os.Remove(path) // a FIFO left behind would block the clean-up's walk
	}
	return fmt.Sprintf("| %d | %d | %d | %d |\n", trials, lost, late, leaked)
}

// tryFault runs the write commands, the hooks that read, and status and
// doctor once in repo, and counts entries lost, hooks past their
// timeout and outputs that hold secret (or /etc/passwd's first line).
func tryFault(t *testing.T, repo *gitstore.Repo, secret string) (lost, late, leaked int) {
	t.Helper()
	passwd, _ := os.ReadFile("/etc/passwd")
	firstLine, _, _ := strings.Cut(string(passwd), "\n")
	leaks := func(out []byte) bool {
		return bytes.Contains(out, []byte(secret)) || (firstLine != "" && bytes.Contains(out, []byte(firstLine)))
	}
	for _, kind := range []string{"fact", "decision"} {
		text := kind + " under fault " + strconv.FormatInt(time.Now().UnixNano(), 36)
		out, err := runTimed(repo, 10*time.Second, nil, kind, text)
		if err == nil && len(bytes.TrimSpace(out)) > 0 {
			log, _ := os.ReadFile(repo.LogPath())
			if !bytes.Contains(log, []byte(text)) {
				lost++
			}
		}
	}
	for _, h := range []struct {
		event, payload string
		timeout        time.Duration
	}{
		{"SessionStart", "SessionStart-lead.json", 15 * time.Second},
		{"UserPromptSubmit", "UserPromptSubmit-lead.json", 10 * time.Second},
		{"PreToolUse", "PreToolUse-Edit-lead.json", 10 * time.Second},
		{"PostToolUse", "PostToolUse-Edit-lead.json", 10 * time.Second},
	} {
		raw, err := os.ReadFile(filepath.Join(payloadDir, h.payload))
		if err != nil {
			t.Fatal(err)
		}
		raw = bytes.ReplaceAll(raw, []byte("/home/dev/repo"), []byte(repo.Top))
		out, err := runTimed(repo, h.timeout, raw, "hook", h.event)
		if errors.Is(err, context.DeadlineExceeded) {
			late++
		}
		if leaks(out) {
			leaked++
		}
	}
	for _, args := range [][]string{{"status"}, {"doctor"}, {"log", "--all"}, {"dream"}} {
		out, err := runTimed(repo, 10*time.Second, nil, args...)
		if errors.Is(err, context.DeadlineExceeded) {
			late++
		}
		if leaks(out) {
			leaked++
		}
	}
	return lost, late, leaked
}

// runTimed runs lucid with args in repo, killed at timeout, and returns
// stdout and stderr together.
func runTimed(repo *gitstore.Repo, timeout time.Duration, stdin []byte, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "lucid", args...)
	cmd.Dir = repo.Top
	cmd.Env = append(os.Environ(), "LUCID_AGENT=")
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

// fullDiskTrials fills a 2 MiB tmpfs holding a repository with `lucid
// fact` until it refuses trials times, and returns the table's row: every
// acknowledged entry is in the log, and the log has no invalid line.
func fullDiskTrials(t *testing.T, trials int) (string, bool) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).Run(); err != nil {
		t.Logf("full disk: no tmpfs here (%v); the short-write tests in gitstore stand for it", err)
		return "", false
	}
	defer exec.Command("umount", dir).Run()
	gittest.Run(t, dir, "init", "-q")
	repo := lucidInit(t, dir)
	var acked []string
	refused := 0
	for i := 0; refused < trials && i < 2000; i++ {
		text := fmt.Sprintf("entry %d %s", i, strings.Repeat("x", 1000+i*997%30000))
		out, err := runTimed(repo, 10*time.Second, nil, "fact", text)
		if err != nil {
			refused++
			continue
		}
		acked = append(acked, strings.TrimSpace(string(out)))
	}
	if refused == 0 {
		t.Fatal("the tmpfs never filled up")
	}
	log, _ := os.ReadFile(repo.LogPath())
	lost := 0
	for _, id := range acked {
		if !bytes.Contains(log, []byte(`"id":"`+id+`"`)) {
			lost++
		}
	}
	invalid, _ := logstore.Scan(repo.LogPath(), func(logformat.Entry) bool { return true })
	torn := len(log) > 0 && log[len(log)-1] != '\n'
	if lost > 0 || invalid > 0 || torn {
		t.Errorf("full disk: %d of %d acknowledged entries lost, %d invalid lines, ends in a partial line: %v", lost, len(acked), invalid, torn)
	}
	return fmt.Sprintf("| full disk (2 MiB tmpfs): `lucid fact` refused %d times after %d written | %d | %d | 0 | 0 |\n", refused, len(acked), len(acked)+refused, lost), true
}
