package lichstore

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// RecentMax is how many distinct sessions (lich's) or agents (lucid's) a
// marker remembers: enough that an agent told who changed a file since
// its own last write is told of each of the many agents a busy file sees.
const RecentMax = 16

// Edit is one session's latest edit of a file.
type Edit struct {
	Session string `json:"session"`
	At      int64  `json:"at"` // epoch milliseconds, as lich writes it
}

// Time returns the edit's time.
func (e Edit) Time() time.Time { return time.UnixMilli(e.At) }

// Marker is the marker of one file, in lich's format: the path as the
// tool gave it, the session that edited it last and when. Recent, an extra
// field lich's guard ignores, keeps the last RecentMax distinct sessions
// that edited the file, newest first, the last edit included; lucid writes
// it only when it names more than that last edit, so a marker of one
// session is byte for byte what lich's guard writes. A session is a lich
// session's id, or a lucid agent's (agentstore.AgentID).
type Marker struct {
	Path    string
	Session string
	At      int64
	Recent  []Edit
}

// Edits returns the distinct sessions that edited the file, newest first,
// at most RecentMax: the last edit, then the recent ones. A marker written by
// lich's guard has only the last edit.
func (m *Marker) Edits() []Edit {
	out := []Edit{{Session: m.Session, At: m.At}}
	for _, e := range m.Recent {
		if len(out) == RecentMax {
			break
		}
		if e.Session != "" && !hasSession(out, e.Session) {
			out = append(out, e)
		}
	}
	return out
}

func hasSession(edits []Edit, session string) bool {
	for _, e := range edits {
		if e.Session == session {
			return true
		}
	}
	return false
}

// Hash names a path's marker the way lich's guard does: 32-bit FNV-1a
// over the path's UTF-16 code units (JavaScript's charCodeAt), as 8
// lowercase hex digits. For an ASCII path this is hash/fnv's New32a over
// its bytes; a non-ASCII path differs from that, and lich's reading wins.
func Hash(path string) string {
	h := uint32(0x811c9dc5)
	mix := func(u uint32) { h = (h ^ u) * 0x01000193 }
	for _, r := range path { // an invalid byte comes out as U+FFFD, as a JSON decoder gives it
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			mix(uint32(hi))
			mix(uint32(lo))
		} else {
			mix(uint32(r))
		}
	}
	return fmt.Sprintf("%08x", h)
}

// lichMarkerPath is where the marker of path lives: the work tree's own git
// dir, lich-edits/, the hash of the path as given: lich's guard gives the
// path its tool wrote, lucid the file's spelling on disk where the file
// system folds names (gitstore.OnDisk), which is the same path whenever
// the tool wrote the name as the file has it.
func lichMarkerPath(r *gitstore.Repo, path string) string {
	return filepath.Join(r.GitDir, gitstore.LichEditsDir, Hash(path))
}

// ErrCorrupt says that a marker is not one lich or lucid could have
// written.
var ErrCorrupt = errors.New("corrupt lich marker")

// ReadMarker reads the marker of path. It returns nil and no error when
// there is none, or when the marker there is another file's (a hash
// collision). A marker that is not JSON, or lacks its session or time, is
// an error wrapping ErrCorrupt.
func ReadMarker(r *gitstore.Repo, path string) (*Marker, error) {
	file := lichMarkerPath(r, path)
	b, err := readIfExists(file)
	if b == nil || err != nil {
		return nil, err
	}
	m, err := parseLichMarker(b)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrCorrupt, file, err)
	}
	if m.Path != path {
		return nil, nil
	}
	return m, nil
}

// parseLichMarker decodes a marker's content. It is read on every write
// of every agent, so with jsonread, not encoding/json (whose first decode
// in a process costs more than the rest of a hook).
func parseLichMarker(b []byte) (*Marker, error) {
	m := &Marker{}
	var hasPath, hasAt bool
	err := jsonread.Object(b, func(key string, v []byte) error {
		var err error
		switch key {
		case "path":
			m.Path, err = jsonread.String(v)
			hasPath = true
		case "session":
			m.Session, err = jsonread.String(v)
		case "at":
			m.At, err = jsMillis(v)
			hasAt = err == nil
		case "recent":
			m.Recent, err = decodeRecent(v)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if !hasPath || m.Session == "" || !hasAt {
		return nil, errors.New(`want "path", "session" and "at"`)
	}
	return m, nil
}

// decodeRecent reads a marker's recent list: [{"session":..,"at":..},...].
// An entry without its session is left out.
func decodeRecent(v []byte) ([]Edit, error) {
	var out []Edit
	err := jsonread.Array(v, func(raw []byte) error {
		var e Edit
		err := jsonread.Object(raw, func(key string, v []byte) error {
			var err error
			switch key {
			case "session":
				e.Session, err = jsonread.String(v)
			case "at":
				e.At, err = jsMillis(v)
			}
			return err
		})
		if err == nil && e.Session != "" {
			out = append(out, e)
		}
		return err
	})
	return out, err
}

// jsMillis reads a time in epoch milliseconds as JavaScript may write it:
// any JSON number.
func jsMillis(v []byte) (int64, error) {
	if n, err := jsonread.Int(v); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return 0, fmt.Errorf(`"at" is not a number`)
	}
	return int64(f), nil
}

// RecordEdit writes session's marker for path at the given time over
// whatever was there, keeping the other sessions of the recent list. A
// marker that cannot be read, is corrupt or is another file's is simply
// replaced. The folder lich-edits/ is made when missing; the write is a temp
// file and a rename inside it, so that lich's guard never reads half a
// marker.
func RecordEdit(r *gitstore.Repo, path, session string, at time.Time) error {
	m := &Marker{Path: path, Session: session, At: at.UnixMilli()}
	if old, err := ReadMarker(r, path); err == nil && old != nil {
		m.Recent = []Edit{{Session: session, At: m.At}}
		for _, e := range old.Edits() {
			if len(m.Recent) < RecentMax && !hasSession(m.Recent, e.Session) {
				m.Recent = append(m.Recent, e)
			}
		}
		if len(m.Recent) == 1 {
			m.Recent = nil
		}
	}
	dir := filepath.Join(r.GitDir, gitstore.LichEditsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(filepath.Join(dir, Hash(path)), m.appendJSON(nil), 0o644)
}

// appendJSON appends the marker as JavaScript's JSON.stringify writes it:
// keys in lich's order, no spaces, nothing escaped that JSON does not
// require (no \u003c for <, no \u2028).
func (m *Marker) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendJSString(b, m.Path)
	b = append(b, `,"session":`...)
	b = appendJSString(b, m.Session)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, m.At, 10)
	if len(m.Recent) > 0 {
		b = append(b, `,"recent":[`...)
		for i, e := range m.Recent {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"session":`...)
			b = appendJSString(b, e.Session)
			b = append(b, `,"at":`...)
			b = strconv.AppendInt(b, e.At, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSString quotes s as JSON.stringify does.
func appendJSString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}

// readIfExists reads file, and returns nil and no error when it is missing.
func readIfExists(file string) ([]byte, error) {
	b, err := gitstore.ReadFile(file, gitstore.MaxRecord)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if b == nil && err == nil {
		b = []byte{} // empty, not missing
	}
	return b, err
}

// lichAge reads the time a marker or news file was written, from its "at"
// when it has one, else from the file's modification time.
func lichAge(file string, fi os.FileInfo) time.Time {
	if strings.HasPrefix(fi.Name(), ".") {
		return fi.ModTime() // a temp file left by a crash
	}
	b, err := gitstore.ReadFile(file, gitstore.MaxRecord)
	if err == nil {
		var j struct {
			At *float64 `json:"at"`
		}
		if json.Unmarshal(b, &j) == nil && j.At != nil {
			return time.UnixMilli(int64(*j.At))
		}
	}
	return fi.ModTime()
}

// Recent reads the markers of the work tree r written since since (any
// time when since is zero), newest first, at most max of them. It reads a marker only when its file's time
// says it is recent, so that a folder of old markers costs a stat each.
func Recent(r *gitstore.Repo, since time.Time, max int) []*Marker {
	dir := filepath.Join(r.GitDir, gitstore.LichEditsDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type stamped struct {
		name string
		at   time.Time
	}
	var fresh []stamped
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue // a temp file
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) {
			continue
		}
		fresh = append(fresh, stamped{e.Name(), fi.ModTime()})
	}
	slices.SortFunc(fresh, func(a, b stamped) int { return b.at.Compare(a.at) })
	var out []*Marker
	for _, f := range fresh {
		if len(out) == max {
			break
		}
		b, err := readIfExists(filepath.Join(dir, f.name))
		if b == nil || err != nil {
			continue
		}
		if m, err := parseLichMarker(b); err == nil && m.At >= since.UnixMilli() {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b *Marker) int { return cmp.Compare(b.At, a.At) })
	return out
}
