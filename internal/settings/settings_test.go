package settings

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

func repo(t *testing.T) *gitstore.Repo {
	t.Helper()
	t.Setenv("LUCID_LEASES", "")
	r, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoad(t *testing.T) {
	r := repo(t)
	s, err := Load(r)
	if err != nil || s.Leases != DefaultLeases || s.LeasesFrom != "default" || s.AwarenessWindow != DefaultAwarenessWindow {
		t.Fatalf("no file: %+v, %v; want the defaults", s, err)
	}
	gittest.WriteFile(t, r.Top, Name, `{"leases": true, "awareness_window": "3m", "later": {"x": 1}}`)
	if s, err = Load(r); err != nil || !s.Leases || s.LeasesFrom != Name || s.AwarenessWindow != 3*time.Minute {
		t.Fatalf("a file: %+v, %v", s, err)
	}
	if got := s.Describe(); got != "leases: on (.lucid/settings.json)" {
		t.Errorf("Describe: %q", got)
	}
	t.Setenv("LUCID_LEASES", "off")
	if s, err = Load(r); err != nil || s.Leases || s.LeasesFrom != "LUCID_LEASES" {
		t.Fatalf("LUCID_LEASES=off over the file: %+v, %v", s, err)
	}
	t.Setenv("LUCID_LEASES", "")
	for _, bad := range []string{`{"leases": "yes"}`, `{"awareness_window": "soon"}`, `{"awareness_window": "-1m"}`, `not json`} {
		gittest.WriteFile(t, r.Top, Name, bad)
		s, err := Load(r)
		if err == nil || !strings.Contains(err.Error(), Name) || !strings.Contains(err.Error(), "lucid init --leases") {
			t.Errorf("%s: %v; want an error naming the file and the fix", bad, err)
		}
		if s.AwarenessWindow <= 0 {
			t.Errorf("%s: the window is %v; want a usable one beside the error", bad, s.AwarenessWindow)
		}
	}
}

// SetLeases changes its key alone, and nothing when it holds already.
func TestSetLeases(t *testing.T) {
	r := repo(t)
	if changed, err := SetLeases(r, true); err != nil || !changed {
		t.Fatalf("first SetLeases: %v, %v", changed, err)
	}
	gittest.WriteFile(t, r.Top, Name, "{\"awareness_window\": \"5m\", \"leases\": true}\n")
	if changed, err := SetLeases(r, true); err != nil || changed {
		t.Fatalf("SetLeases to what holds: %v, %v", changed, err)
	}
	if changed, err := SetLeases(r, false); err != nil || !changed {
		t.Fatalf("SetLeases off: %v, %v", changed, err)
	}
	b, _ := os.ReadFile(r.Abs(Name))
	s, err := Load(r)
	if err != nil || s.Leases || s.AwarenessWindow != 5*time.Minute {
		t.Fatalf("after SetLeases off the file is %s: %+v, %v", b, s, err)
	}
	gittest.WriteFile(t, r.Top, Name, "[1]")
	if _, err := SetLeases(r, true); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("a file that is no object: %v", err)
	}
	if b, _ := os.ReadFile(r.Abs(Name)); string(b) != "[1]" {
		t.Errorf("the file was changed to %s", b)
	}
}
