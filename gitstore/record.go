package gitstore

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// RecordKinds are the kinds a person or an agent writes with a command of
// the same name.
var RecordKinds = []string{KindFact, KindDecision, KindDeadEnd, KindNote}

// Record appends an entry of kind with text by agent, citing the evidence
// specs ("PATH" or "PATH:LINE", relative to cwd). Every spec is checked
// before anything is written: on any error nothing is.
func (r *Repo) Record(agent, kind, text, cwd string, specs []string) (Entry, error) {
	if strings.TrimSpace(text) == "" {
		return Entry{}, fmt.Errorf("the text is empty: say what you learned, e.g. lucid %s \"TEXT\"", kind)
	}
	return r.write(NewEntry(time.Now(), agent, kind, text), cwd, specs)
}

func (r *Repo) write(e Entry, cwd string, specs []string) (Entry, error) {
	if !r.Initialised() {
		return Entry{}, ErrNotInitialised
	}
	for _, spec := range specs {
		ev, err := r.Cite(cwd, spec)
		if err != nil {
			return Entry{}, err
		}
		e.Evidence = append(e.Evidence, ev)
	}
	if err := Append(r.LogPath(), e); err != nil {
		return Entry{}, err
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
func (r *Repo) Supersede(agent, id, text string, retire bool, cwd string, specs []string) (Entry, error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if strings.TrimSpace(text) == "" {
		if retire {
			return Entry{}, fmt.Errorf("say why the entry no longer holds: --why \"TEXT\"")
		}
		return Entry{}, fmt.Errorf("the new text is empty: lucid supersede ID \"TEXT\", or --retire --why \"TEXT\"")
	}
	if !ValidID(id) {
		return Entry{}, fmt.Errorf("%q is not an entry id: ids are 26 characters, as `lucid log` shows them", id)
	}
	if !r.Initialised() {
		return Entry{}, ErrNotInitialised
	}
	var s supersession
	cur, err := s.find(r.LogPath(), 0, id)
	if err != nil {
		return Entry{}, err
	}
	if err := s.refusal(id); err != nil {
		return Entry{}, err
	}
	lock, err := r.Lock()
	if err != nil {
		return Entry{}, err
	}
	defer lock.Unlock()
	if !Grown(r.LogPath(), cur) {
		s, cur = supersession{}, LogCursor{}
	}
	if _, err := s.find(r.LogPath(), cur.Size, id); err != nil {
		return Entry{}, err
	}
	if err := s.refusal(id); err != nil {
		return Entry{}, err
	}
	e := NewEntry(time.Now(), agent, KindSupersede, text)
	e.Supersedes = id
	e.Retired = retire
	return r.write(e, cwd, specs)
}

// supersession is what the log says of one id: the entry, and what
// superseded or retired it.
type supersession struct{ target, by *Entry }

// find reads the log from byte off for the entry id and its supersession,
// and returns the cursor past the last line read.
func (s *supersession) find(path string, off int64, id string) (LogCursor, error) {
	cur, _, err := ScanFromMatching(path, off, id, func(e Entry) {
		switch {
		case e.ID == id && s.target == nil:
			s.target = &e
		case e.Kind == KindSupersede && e.Supersedes == id && s.by == nil:
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
	case s.target.Kind == KindSupersede && s.target.Retired:
		return fmt.Errorf("entry %s is a retirement, not something to supersede", id)
	}
	return nil
}

// Dream appends a dream entry: .lucid/digest.md now covers the log up to
// here, and digests give it plus only the newer entries. It needs digest.md.
func (r *Repo) Dream(agent, cwd string) (Entry, error) {
	if fi, err := os.Stat(r.DigestPath()); err != nil || fi.Size() == 0 {
		return Entry{}, fmt.Errorf("write %s first: the consolidated summary the dream point stands for", DigestName)
	}
	return r.write(NewEntry(time.Now(), agent, KindDream, "consolidated into "+DigestName), cwd, nil)
}
