//go:build darwin

package gitstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// The lock itself is the flock of lock_unix.go, as on Linux, whose run
// covers it; what differs on a Mac is that no /proc/locks names the
// holder: LockHolder is empty, and the busy lock's error says to ask lsof.
func TestDarwinLockBusySaysLsof(t *testing.T) {
	r, err := Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.LockWithin(0) // makes the folder for the holder
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	holdLock(t, r.LockPath())
	_, err = r.LockWithin(20 * time.Millisecond)
	var busy *LockBusyError
	if !errors.As(err, &busy) {
		t.Fatalf("LockWithin while another process holds it: %v", err)
	}
	if busy.Holder != "" {
		t.Errorf("a holder named where the system does not say: %q", busy.Holder)
	}
	if want := "by another process (find it with `lsof " + r.LockPath() + "`)"; !strings.Contains(err.Error(), want) {
		t.Errorf("%s\ndoes not say %q", err, want)
	}
}
