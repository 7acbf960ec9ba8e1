package agentstore

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// A file's stamp is its size and modification time, and changes when the
// file does; a folder, a link or a missing file has none.
func TestStampFile(t *testing.T) {
	r := repotest.Lucid(t)
	path := gittest.WriteFile(t, r.Top, "src/a.go", "package a\n")
	then := time.Date(2026, 12, 3, 8, 0, 0, 5, time.UTC)
	if err := os.Chtimes(path, then, then); err != nil {
		t.Fatal(err)
	}
	st, ok := StampFile(path)
	if !ok || st != (FileStamp{Size: 10, MTime: then.UnixNano()}) {
		t.Fatalf("stamp %+v (ok %v)", st, ok)
	}
	if err := os.WriteFile(path, []byte("package a // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := StampFile(path); again == st {
		t.Error("a changed file kept its stamp")
	}
	others := []string{filepath.Dir(path), filepath.Join(r.Top, "missing.go")}
	if link := filepath.Join(r.Top, "link.go"); os.Symlink(path, link) == nil { // not on every Windows
		others = append(others, link)
	}
	for _, p := range others {
		if st, ok := StampFile(p); ok {
			t.Errorf("%s has stamp %+v", p, st)
		}
	}
}

// A watch is taken once, by the agent that left it, in the work tree
// where it was left; a new one takes the place of the old; one dropped is
// gone.
func TestShellWatch(t *testing.T) {
	r := repotest.Lucid(t)
	wt := linked(t, r)
	const one, two = "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae", "5c0e7a52-7fb4-4a5e-9d6b-1f2e3d4c5b6a/sub agent"
	now := time.Now().UnixNano()
	old := ShellWatch{At: now, Files: map[string]FileStamp{"a.go": {Size: 1, MTime: 2}}}
	mine := ShellWatch{At: now, Files: map[string]FileStamp{"src/a.go": {Size: 10, MTime: now - 5}, "b.go": {}}}
	for _, save := range []struct {
		agent string
		w     ShellWatch
	}{{one, old}, {one, mine}, {two, old}} {
		if err := SaveShellWatch(r, save.agent, save.w); err != nil {
			t.Fatal(err)
		}
	}
	if w, ok, err := TakeShellWatch(wt, one); ok || err != nil {
		t.Fatalf("another work tree took %+v (%v)", w, err)
	}
	w, ok, err := TakeShellWatch(r, one)
	if !ok || err != nil || !reflect.DeepEqual(w, mine) {
		t.Fatalf("took %+v (ok %v, %v), want the newer watch %+v", w, ok, err, mine)
	}
	if w, ok, err := TakeShellWatch(r, one); ok || err != nil {
		t.Errorf("taken twice: %+v (%v)", w, err)
	}
	DropShellWatch(r, two)
	DropShellWatch(r, two) // dropping what is gone is no error
	if w, ok, err := TakeShellWatch(r, two); ok || err != nil {
		t.Errorf("a dropped watch was taken: %+v (%v)", w, err)
	}
}

// A watch over an hour old is for a command long gone: taking it gives
// nothing, and it is gone too.
func TestShellWatchTooOld(t *testing.T) {
	r := repotest.Lucid(t)
	const agent = "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae"
	stale := ShellWatch{At: time.Now().Add(-61 * time.Minute).UnixNano(), Files: map[string]FileStamp{"a.go": {Size: 1}}}
	if err := SaveShellWatch(r, agent, stale); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := TakeShellWatch(r, agent); ok || err != nil {
		t.Fatalf("an hour-old watch was taken: %+v (%v)", w, err)
	}
	if err := SaveShellWatch(r, agent, ShellWatch{At: time.Now().Add(-59 * time.Minute).UnixNano()}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := TakeShellWatch(r, agent); !ok || err != nil {
		t.Fatalf("a watch under an hour old was not taken (%v)", err)
	}
}

// A watch file that is not one says which file it is, and is gone after,
// so that the agent's next command starts clean; a watch that cannot be
// written says why.
func TestShellWatchDamaged(t *testing.T) {
	r := repotest.Lucid(t)
	const agent = "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae"
	if err := SaveShellWatch(r, agent, ShellWatch{At: time.Now().UnixNano()}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.GitDir, "lucid", "shell")
	files, err := os.ReadDir(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("watch files %v, %v", files, err)
	}
	path := filepath.Join(dir, files[0].Name())
	if err := os.WriteFile(path, []byte(`{"at":"soon"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ok, err := TakeShellWatch(r, agent)
	if ok || err == nil || !strings.Contains(err.Error(), path+" is not a shell watch") {
		t.Errorf("a damaged watch: ok %v, %v", ok, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the damaged watch stayed: %v", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveShellWatch(r, agent, ShellWatch{}); err == nil {
		t.Error("a watch was saved where its folder is a file")
	}
}
