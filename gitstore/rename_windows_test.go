package gitstore

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A reader that holds the file open for a moment does not make a save
// fail: the rename waits for it to close the file.
func TestWriteFileAtomicWaitsForReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claims.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		f.Close()
	}()
	if err := WriteFileAtomic(path, []byte("new"), 0o644); err != nil {
		t.Fatalf("a save while a reader held the file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("the file reads %q, want new", b)
	}
}
