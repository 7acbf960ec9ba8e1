package logstore

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/zeebo/blake3"
)

// maxLineText bounds the cited line kept in Evidence.Text.
const maxLineText = 200

// Cite turns a spec "PATH" or "PATH:LINE" into evidence: the path relative
// to the work tree's top and the BLAKE3 of the file as it is now. A relative
// PATH is taken from cwd. A path outside the work tree, a missing file, a
// folder, or a line past the file's end is an error.
func Cite(r *gitstore.Repo, cwd, spec string) (logformat.Evidence, error) {
	path, line, err := splitSpec(cwd, spec)
	if err != nil {
		return logformat.Evidence{}, err
	}
	rel, err := r.Rel(path)
	if err != nil {
		return logformat.Evidence{}, fmt.Errorf("evidence %s: %w", spec, err)
	}
	// Where names fold, the file is cited by its own name, as an agent
	// about to edit it is told of it (Match.go cited as MATCH.GO is
	// Match.go).
	rel = gitstore.OnDisk(r.Names(), r.Top, rel)
	fi, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return logformat.Evidence{}, fmt.Errorf("evidence %s: no such file", spec)
	case err == nil && fi.IsDir():
		return logformat.Evidence{}, fmt.Errorf("evidence %s: is a folder; cite a file", spec)
	}
	content, err := gitstore.ReadFile(path, gitstore.MaxEvidence)
	if err != nil {
		return logformat.Evidence{}, fmt.Errorf("evidence %s: %w", spec, err)
	}
	ev := logformat.Evidence{Path: rel, Line: line, Blake3: HashHex(content)}
	if line > 0 {
		lines := splitLines(content)
		if line > len(lines) {
			return logformat.Evidence{}, fmt.Errorf("evidence %s: line %d is past the end of the file (%d lines)", spec, line, len(lines))
		}
		ev.Text = lineText(lines[line-1])
	}
	return ev, nil
}

// splitSpec separates PATH:LINE. A path that exists as written wins over a
// reading with a line number, so a file named "a:1" can still be cited.
func splitSpec(cwd, spec string) (string, int, error) {
	if spec == "" {
		return "", 0, fmt.Errorf("evidence is empty: give -e PATH or -e PATH:LINE")
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(cwd, p)
	}
	i := strings.LastIndexByte(spec, ':')
	if i < 0 {
		return abs(spec), 0, nil
	}
	if _, err := os.Lstat(abs(spec)); err == nil {
		return abs(spec), 0, nil
	}
	n, err := strconv.Atoi(spec[i+1:])
	if err != nil {
		return abs(spec), 0, nil
	}
	if n < 1 {
		return "", 0, fmt.Errorf("evidence %s: line numbers start at 1", spec)
	}
	return abs(spec[:i]), n, nil
}

func HashHex(b []byte) string {
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// splitLines splits content into lines without their endings; a final line
// without a newline counts.
func splitLines(content []byte) [][]byte {
	if len(content) == 0 {
		return nil
	}
	lines := bytes.Split(bytes.TrimSuffix(content, []byte{'\n'}), []byte{'\n'})
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte{'\r'})
	}
	return lines
}

func lineText(line []byte) string {
	t := strings.TrimSpace(string(line))
	if len(t) > maxLineText {
		t = t[:maxLineText]
	}
	return t
}

// Stale says how a cited file differs from what an entry saw.
type Stale struct {
	Index int    `json:"index"` // which of the entry's evidence
	Path  string `json:"path"`
	Gone  bool   `json:"gone,omitempty"` // the file no longer exists
	Line  int    `json:"line,omitempty"` // the cited line, when its text can be looked for
	// NowLine is where the cited line's text is now (the nearest occurrence
	// to Line), 0 when it is found nowhere or no line was cited.
	NowLine int `json:"now_line,omitempty"`
	// Refused says why the cited path was not read: it is outside the
	// work tree, not a regular file, or over MaxEvidence.
	Refused string `json:"refused,omitempty"`
}

// String is the stale mark as people and agents read it.
func (s Stale) String() string {
	switch {
	case s.Refused != "":
		return fmt.Sprintf("⚠stale: %s not checked: %s", s.Path, s.Refused)
	case s.Gone:
		return fmt.Sprintf("⚠stale: %s is gone", s.Path)
	case s.Line == 0:
		return fmt.Sprintf("⚠stale: %s changed", s.Path)
	case s.NowLine == s.Line:
		return fmt.Sprintf("⚠stale: %s changed (line %d still reads the same)", s.Path, s.Line)
	case s.NowLine > 0:
		return fmt.Sprintf("⚠stale: %s changed (line %d is now at %d)", s.Path, s.Line, s.NowLine)
	default:
		return fmt.Sprintf("⚠stale: %s changed (line %d's text is gone)", s.Path, s.Line)
	}
}

// Checker compares evidence with the files as they are now. It reads each
// cited file at most once, so one Checker serves a whole listing.
type Checker struct {
	repo  *gitstore.Repo
	files map[string]*fileNow
}

// fileNow is what a Checker learned of one cited file. It keeps the hash,
// not the content: a listing may cite many large files, and the content is
// needed again only to find a cited line in a file that changed.
type fileNow struct {
	gone    bool
	refused string
	hash    string
}

// NewChecker returns a Checker for the work tree.
func NewChecker(r *gitstore.Repo) *Checker {
	return &Checker{repo: r, files: map[string]*fileNow{}}
}

// Check returns one Stale for each piece of evidence whose file changed or
// is gone; nil when all of it still holds.
func (c *Checker) Check(evidence []logformat.Evidence) []Stale {
	var out []Stale
	for i, ev := range evidence {
		f := c.file(ev.Path)
		if !f.gone && f.refused == "" && f.hash == ev.Blake3 {
			continue
		}
		s := Stale{Index: i, Path: ev.Path, Gone: f.gone, Refused: f.refused}
		// A blank cited line cannot be found again: say only that the file changed.
		if !f.gone && f.refused == "" && ev.Line > 0 && ev.Text != "" {
			s.Line = ev.Line
			if content, err := gitstore.ReadFile(c.repo.Abs(ev.Path), gitstore.MaxEvidence); err == nil {
				s.NowLine = nearestLine(splitLines(content), ev.Text, ev.Line)
			}
		}
		out = append(out, s)
	}
	return out
}

func (c *Checker) file(rel string) *fileNow {
	if f, ok := c.files[rel]; ok {
		return f
	}
	f := &fileNow{}
	c.files[rel] = f
	// The path comes from the log, which a pull can fill with anything:
	// it must name a file in the work tree, through whatever links.
	path := c.repo.Abs(rel)
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		f.refused = "the path leaves the work tree"
		return f
	}
	if _, err := c.repo.Rel(path); err != nil {
		f.refused = "it resolves outside the work tree"
		if target, err := filepath.EvalSymlinks(path); err == nil {
			f.refused = "it resolves to " + target + ", outside the work tree"
		}
		return f
	}
	hash, err := hashFile(path)
	var bad *gitstore.BadFileError
	var big *gitstore.TooLargeError
	switch {
	case errors.As(err, &bad):
		f.refused = "it " + bad.Problem
	case errors.As(err, &big):
		f.refused = "it is over " + gitstore.SizeText(gitstore.MaxEvidence)
	case err != nil:
		f.gone = true
	default:
		f.hash = hash
	}
	return f
}

// hashFile hashes the file at path as it streams by, under OpenFile's
// rules and within MaxEvidence.
func hashFile(path string) (string, error) {
	fh, fi, err := gitstore.OpenFile(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	if fi.Size() > gitstore.MaxEvidence {
		return "", &gitstore.TooLargeError{Path: path, Size: fi.Size(), Limit: gitstore.MaxEvidence}
	}
	h := blake3.New()
	n, err := io.Copy(h, io.LimitReader(fh, gitstore.MaxEvidence+1))
	if err != nil {
		return "", err
	}
	if n > gitstore.MaxEvidence {
		return "", &gitstore.TooLargeError{Path: path, Size: n, Limit: gitstore.MaxEvidence}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// nearestLine returns the line number of the occurrence of text closest to
// want, or 0 when no line reads text.
func nearestLine(lines [][]byte, text string, want int) int {
	best := 0
	for i, l := range lines {
		if lineText(l) != text {
			continue
		}
		n := i + 1
		if best == 0 || abs(n-want) < abs(best-want) {
			best = n
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
