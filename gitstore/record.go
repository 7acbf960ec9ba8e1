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
// The check and the append hold the repository's lock, so two agents cannot
// both replace one entry.
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
	lock, err := r.Lock()
	if err != nil {
		return Entry{}, err
	}
	defer lock.Unlock()

	var target *Entry
	var by *Entry
	if _, err := Scan(r.LogPath(), func(e Entry) bool {
		switch {
		case e.ID == id && target == nil:
			t := e
			target = &t
		case e.Kind == KindSupersede && e.Supersedes == id && by == nil:
			b := e
			by = &b
		}
		return true
	}); err != nil {
		return Entry{}, err
	}
	switch {
	case target == nil:
		return Entry{}, fmt.Errorf("no entry has the id %s: see `lucid log --all`", id)
	case by != nil && by.Retired:
		return Entry{}, fmt.Errorf("entry %s was already retired by %s", id, by.ID)
	case by != nil:
		return Entry{}, fmt.Errorf("entry %s was already superseded by %s: supersede that one instead", id, by.ID)
	case target.Kind == KindSupersede && target.Retired:
		return Entry{}, fmt.Errorf("entry %s is a retirement, not something to supersede", id)
	}
	e := NewEntry(time.Now(), agent, KindSupersede, text)
	e.Supersedes = id
	e.Retired = retire
	return r.write(e, cwd, specs)
}

// Dream appends a dream entry: .lucid/digest.md now covers the log up to
// here, and digests give it plus only the newer entries. It needs digest.md.
func (r *Repo) Dream(agent, cwd string) (Entry, error) {
	if fi, err := os.Stat(r.DigestPath()); err != nil || fi.Size() == 0 {
		return Entry{}, fmt.Errorf("write %s first: the consolidated summary the dream point stands for", DigestName)
	}
	return r.write(NewEntry(time.Now(), agent, KindDream, "consolidated into "+DigestName), cwd, nil)
}
