package logstore

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// RecordKinds are the kinds a person or an agent writes with a command of
// the same name.
var RecordKinds = []string{logformat.KindFact, logformat.KindDecision, logformat.KindDeadEnd, logformat.KindNote}

// Record appends an entry of kind with text by agent, citing the evidence
// specs ("PATH" or "PATH:LINE", relative to cwd). Every spec is checked
// before anything is written: on any error nothing is.
func Record(r *gitstore.Repo, agent, kind, text, cwd string, specs []string) (logformat.Entry, error) {
	if strings.TrimSpace(text) == "" {
		return logformat.Entry{}, fmt.Errorf("the text is empty: say what you learned, e.g. lucid %s \"TEXT\"", kind)
	}
	return write(r, logformat.NewEntry(time.Now(), agent, kind, text), cwd, specs)
}

func write(r *gitstore.Repo, e logformat.Entry, cwd string, specs []string) (logformat.Entry, error) {
	if !r.Initialised() {
		return logformat.Entry{}, gitstore.ErrNotInitialised
	}
	for _, spec := range specs {
		ev, err := Cite(r, cwd, spec)
		if err != nil {
			return logformat.Entry{}, err
		}
		e.Evidence = append(e.Evidence, ev)
	}
	if err := Append(r.LogPath(), e); err != nil {
		return logformat.Entry{}, err
	}
	return e, nil
}

// Supersede appends an entry that replaces the entry id with text, or, with
// retire, retires it for the reason text. An unknown id, an entry already
// superseded (the error names what replaced it) and a retirement are refused.
//
// The lock makes the check and the append one step, so two agents cannot
// both replace one entry; but nothing holds the lock while it reads the
// whole log. The log is read first, decoding only the lines that name id;
// then, under the lock, only what was appended since is checked again (the
// whole log only when it was rewritten meanwhile, by a checkout), and the
// entry written.
func Supersede(r *gitstore.Repo, agent, id, text string, retire bool, cwd string, specs []string) (logformat.Entry, error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if strings.TrimSpace(text) == "" {
		if retire {
			return logformat.Entry{}, fmt.Errorf("say why the entry no longer holds: --why \"TEXT\"")
		}
		return logformat.Entry{}, fmt.Errorf("the new text is empty: lucid supersede ID \"TEXT\", or --retire --why \"TEXT\"")
	}
	if !logformat.ValidID(id) {
		return logformat.Entry{}, fmt.Errorf("%q is not an entry id: ids are 26 characters, as `lucid log` shows them", id)
	}
	if !r.Initialised() {
		return logformat.Entry{}, gitstore.ErrNotInitialised
	}
	var s supersession
	cur, err := s.find(r.LogPath(), 0, id)
	if err != nil {
		return logformat.Entry{}, err
	}
	if err := s.refusal(id); err != nil {
		return logformat.Entry{}, err
	}
	lock, err := r.Lock()
	if err != nil {
		return logformat.Entry{}, err
	}
	defer lock.Unlock()
	if !Grown(r.LogPath(), cur) {
		s, cur = supersession{}, Cursor{}
	}
	if _, err := s.find(r.LogPath(), cur.Size, id); err != nil {
		return logformat.Entry{}, err
	}
	if err := s.refusal(id); err != nil {
		return logformat.Entry{}, err
	}
	e := logformat.NewEntry(time.Now(), agent, logformat.KindSupersede, text)
	e.Supersedes = id
	e.Retired = retire
	return write(r, e, cwd, specs)
}

// supersession is what the log says of one id: the entry, and what
// superseded or retired it.
type supersession struct{ target, by *logformat.Entry }

// find reads the log from byte off for the entry id and its supersession,
// and returns the cursor past the last line read.
func (s *supersession) find(path string, off int64, id string) (Cursor, error) {
	cur, _, err := ScanFromMatching(path, off, id, func(e logformat.Entry) {
		switch {
		case e.ID == id && s.target == nil:
			s.target = &e
		case e.Kind == logformat.KindSupersede && e.Supersedes == id && s.by == nil:
			s.by = &e
		}
	})
	return cur, err
}

// refusal is why id cannot be superseded, or nil.
func (s *supersession) refusal(id string) error {
	switch {
	case s.target == nil:
		return fmt.Errorf("no entry has the id %s: see `lucid log --all`", id)
	case s.by != nil && s.by.Retired:
		return fmt.Errorf("entry %s was already retired by %s", id, s.by.ID)
	case s.by != nil:
		return fmt.Errorf("entry %s was already superseded by %s: supersede that one instead", id, s.by.ID)
	case s.target.Kind == logformat.KindSupersede && s.target.Retired:
		return fmt.Errorf("entry %s is a retirement, not something to supersede", id)
	}
	return nil
}

// Dream appends a dream entry: .lucid/digest.md now covers the log up to
// here, and digests give it plus only the newer entries. It needs digest.md.
func Dream(r *gitstore.Repo, agent, cwd string) (logformat.Entry, error) {
	if fi, err := os.Stat(r.DigestPath()); err != nil || fi.Size() == 0 {
		return logformat.Entry{}, fmt.Errorf("write %s first: the consolidated summary the dream point stands for", gitstore.DigestName)
	}
	return write(r, logformat.NewEntry(time.Now(), agent, logformat.KindDream, "consolidated into "+gitstore.DigestName), cwd, nil)
}
