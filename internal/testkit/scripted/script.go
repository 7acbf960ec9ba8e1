package scripted

import "strings"

// Script is what the model says in one conversation: a lead session, or
// a subagent. Each wire says which user text must hold its Marker and
// what the step of a request is (the number of the model's turns in it:
// step 0 answers the first request, step 1 the request after the model's
// first turn, and so on). Q is the wire's decoded request, A its reply.
type Script[Q, A any] struct {
	Name   string // recorded as Request.Conversation
	Marker string // a string only this conversation's first user text holds
	Steps  []Step[Q, A]
	// Done answers the steps past the end; nil says "Done." and ends the
	// turn. A test counts the conversation's requests to see how often the
	// client asked past the script.
	Done Step[Q, A]
	// Summary answers a client's request to summarise the conversation
	// (compaction), which is no step, where the wire tells such a request
	// by its conversation (Codex's); it is then shown to the model.
	Summary string
}

// Step makes the model's answer to one request; it may read the request,
// for example to quote a tool's result back.
type Step[Q, A any] func(q Q) A

// Answer is the reply of the given step to q: the step's, past the end
// Done's; ok is false when neither is scripted.
func (sc *Script[Q, A]) Answer(step int, q Q) (reply A, ok bool) {
	switch {
	case step < len(sc.Steps):
		return sc.Steps[step](q), true
	case sc.Done != nil:
		return sc.Done(q), true
	}
	return reply, false
}

// Claim finds the script whose marker text holds, nil when none does;
// second is another one that does, which the wire reports.
func Claim[Q, A any](scripts []*Script[Q, A], text string) (found, second *Script[Q, A]) {
	for _, sc := range scripts {
		if sc.Marker == "" || !strings.Contains(text, sc.Marker) {
			continue
		}
		if found != nil {
			return found, sc
		}
		found = sc
	}
	return found, nil
}
