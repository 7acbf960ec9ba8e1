package logstore

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// The index brought up to one appended entry, with 10,000 live entries
// citing 100 files.
func BenchmarkUpdateCitesOneAppend(b *testing.B) {
	r := citesRepo(&testing.T{})
	f, err := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 10000 {
		line, _ := logformat.EncodeEntry(cited(logformat.KindFact, fmt.Sprintf("fact %d", i), fmt.Sprintf("pkg/f%d.go", i%100)))
		f.Write(line)
	}
	f.Close()
	if err := UpdateCites(r, nil); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if err := Append(r.LogPath(), cited(logformat.KindFact, "new", fmt.Sprintf("pkg/f%d.go", i%100))); err != nil {
			b.Fatal(err)
		}
		if err := UpdateCites(r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The index built from a log of 100,000 entries, one in ten citing one of
// 100 files.
func BenchmarkRebuildCites100k(b *testing.B) {
	r := citesRepo(&testing.T{})
	f, err := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 100000 {
		e := logformat.NewEntry(time.Now(), "a", logformat.KindNote, fmt.Sprintf("note %d with a text of some length, as notes have", i))
		if i%10 == 0 {
			e = cited(logformat.KindFact, fmt.Sprintf("fact %d", i), fmt.Sprintf("pkg/f%d.go", i%100))
		}
		line, _ := logformat.EncodeEntry(e)
		f.Write(line)
	}
	f.Close()
	for b.Loop() {
		os.RemoveAll(r.CitesDir())
		if err := UpdateCites(r, nil); err != nil {
			b.Fatal(err)
		}
	}
}
