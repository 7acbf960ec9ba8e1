package logstore

import (
	"os"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

func TestZZProf(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	r, _ := gitstore.Find(dir)
	for range 3 {
		start := time.Now()
		_, err := Search(r, SearchOptions{Words: []string{"session", "cache", "redis"}, N: 20})
		t.Log(time.Since(start), err)
	}
}
