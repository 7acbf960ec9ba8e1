package hooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
)

// The digest's budget, in bytes of text: LUCID_BUDGET, default 8000, never
// over 9500 (Claude Code keeps additionalContext under 10,000 characters).
// A byte count never undercounts characters, so the bound holds in both.
const (
	DefaultBudget = 8000
	MaxBudget     = 9500
)

// BudgetFromEnv reads LUCID_BUDGET; a value that is not a positive number
// gives the default.
func BudgetFromEnv() int {
	return min(gitstore.EnvInt("LUCID_BUDGET", DefaultBudget), MaxBudget)
}

// DigestOptions says what goes into a digest beside what is on disk.
type DigestOptions struct {
	Budget int       // bytes; 0 means BudgetFromEnv
	Claims []string  // one line for each active claim
	Now    time.Time // zero means time.Now
	// Questions are the questions the agent has not answered yet, oldest
	// first (talk.Unanswered): after a compaction its digest says them
	// again, within the budget.
	Questions []logformat.Entry
	// Naming is how the digest names agents.
	Naming present.Naming
}

// Digest is what an agent is told when it starts: the plan, digest.md, the
// active claims, the newest live entries that fit the budget, and how to use
// lucid. Text is all of it as the agent reads it.
type Digest struct {
	Text    string        `json:"text"`
	Plan    string        `json:"plan"`
	Summary string        `json:"summary,omitempty"` // .lucid/digest.md
	Claims  []string      `json:"claims"`
	Entries []DigestEntry `json:"entries"`
	// More is true when older live entries did not fit.
	More bool `json:"more"`
	// Questions are the unanswered questions the digest lists, and
	// MoreQuestions how many did not fit (lucid inbox lists them).
	Questions     []logformat.Entry `json:"questions,omitempty"`
	MoreQuestions int               `json:"more_questions,omitempty"`
	// SinceDream is the id of the last dream entry when digest.md covers
	// what came before it, and only newer entries are listed.
	SinceDream string `json:"since_dream,omitempty"`
	Invalid    int    `json:"invalid_lines"`
}

// DigestEntry is a listed entry with its stale marks.
type DigestEntry struct {
	logformat.Entry
	Stale []logstore.Stale `json:"stale,omitempty"`
}

const digestHowTo = `## Using lucid
- Record what you learn as you go, citing the file (and line) that shows it:
  lucid fact "TEXT" -e FILE:LINE | lucid decision "TEXT" | lucid dead-end "TEXT" | lucid note "TEXT"
- Correct an entry: lucid supersede ID "NEW TEXT"; withdraw one: lucid supersede ID --retire --why "TEXT"
- Read more: lucid log [-n N] [--kind K]; this digest again: lucid status
- Talk to another agent: lucid tell AGENT "TEXT" | lucid ask AGENT "TEXT"; lucid agents lists them, lucid inbox what is for you
- ⚠stale marks an entry whose cited file changed since: check it before relying on it.
- .lucid/plan.md is the user's plan: a change to it overrides your original brief. Never edit .lucid/log.jsonl.
`

// The share of the budget the unanswered questions may take, all of them
// and each one's text: a long question is cut (lucid inbox shows it
// whole), and the questions that do not fit are counted.
const (
	questionsShare = 25 // percent
	questionShare  = 10 // percent, of one question's text
)

// BuildDigest composes the digest of the work tree. It reads the log from
// its end and stops when the budget is full, so its cost does not grow with
// the length of the log. Text has every control character escaped
// (internal/escape), before the budget is counted, and what authors wrote
// fenced: the plan and digest.md line by line (escape.Block), an entry's
// text and a claim's task inline (escape.Words); no line of theirs starts
// as the digest's own lines do. It is never longer than the budget, the
// questions of opt included.
func BuildDigest(repo *gitstore.Repo, opt DigestOptions) (Digest, error) {
	budget := opt.Budget
	if budget <= 0 {
		budget = BudgetFromEnv()
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	d := Digest{Claims: opt.Claims}
	if d.Claims == nil {
		set, err := claims.Load(repo, now)
		if err != nil {
			return d, err
		}
		d.Claims = claimLines(repo, set, opt.Naming)
	}
	plan, err := readOptional(repo.PlanPath(), gitstore.MaxPlan)
	if err != nil {
		return d, err
	}
	d.Plan = strings.TrimSpace(stripComments(plan))
	summary, err := readOptional(repo.DigestPath(), gitstore.MaxDigest)
	if err != nil {
		return d, err
	}
	d.Summary = strings.TrimSpace(summary)

	var head strings.Builder
	head.WriteString("# lucid: what the agents in this repository share\n\n## Plan (.lucid/plan.md)\n")
	if d.Plan == "" {
		head.WriteString("(no plan written yet)\n")
	} else {
		head.WriteString(clip(escape.Block(d.Plan, ""), budget*45/100, "read .lucid/plan.md for the rest") + "\n")
	}
	if d.Summary != "" {
		head.WriteString("\n## Consolidated digest (.lucid/digest.md)\n")
		head.WriteString(clip(escape.Block(d.Summary, ""), budget*25/100, "read .lucid/digest.md for the rest") + "\n")
	}
	head.WriteString("\n## Active claims\n")
	if len(d.Claims) == 0 {
		head.WriteString("none\n")
	} else {
		head.WriteString(clip(escape.Text(strings.Join(d.Claims, "\n")), budget*10/100, "`lucid claims` lists them all") + "\n")
	}
	st, _ := settings.Load(repo) // a bad file holds the defaults; lucid doctor names it
	if st.Leases {
		head.WriteString("Leases are on: your write of a file takes a lease on it, and other sessions' agents may not write it until your turn ends or you release it.\n")
	} else {
		head.WriteString("Leases are off: only claims stop a write; you are told when another agent changed the file you are about to write.\n")
	}
	checker, labels := logstore.NewChecker(repo), present.NewLabeler(repo, opt.Naming)
	asked := d.questions(opt.Questions, budget, labels)
	logHead := "\n## Log, newest first\n"
	const moreLine = "(older entries: `lucid log`)\n"
	tail := "\n" + digestHowTo

	room := budget - head.Len() - len(asked) - len(logHead) - len(moreLine) - len(tail)
	var body strings.Builder
	stopAtDream := d.Summary != ""
	supersededBy := map[string]bool{}
	d.Invalid, err = logstore.ScanBackward(repo.LogPath(), func(e logformat.Entry) bool {
		if e.Kind == logformat.KindDream && stopAtDream {
			d.SinceDream = e.ID
			return false
		}
		if e.Kind == logformat.KindSupersede {
			supersededBy[e.Supersedes] = true
		}
		// What agents said to each other is for its recipients (the
		// delta), not the team's knowledge.
		if supersededBy[e.ID] || e.Retired || e.Kind == logformat.KindDream || e.Addressed() {
			return true
		}
		stale := checker.Check(e.Evidence)
		line := FormatEntry(e, stale, labels, now)
		if body.Len()+len(line) > room {
			d.More = true
			return false
		}
		body.WriteString(line)
		d.Entries = append(d.Entries, DigestEntry{Entry: e, Stale: stale})
		return true
	})
	if err != nil {
		return d, err
	}

	var text strings.Builder
	text.WriteString(head.String())
	text.WriteString(asked)
	text.WriteString(logHead)
	if len(d.Entries) == 0 && !d.More {
		text.WriteString("(nothing recorded yet)\n")
	}
	text.WriteString(body.String())
	if d.More {
		text.WriteString(moreLine)
	}
	text.WriteString(tail)
	d.Text = clip(text.String(), budget, "")
	return d, nil
}

// questions is the digest's section of the questions qs, oldest first,
// within questionsShare of the budget, each one's text within
// questionShare; "" when there are none. It notes in d those it lists and
// how many more there are.
func (d *Digest) questions(qs []logformat.Entry, budget int, labels *present.Labeler) string {
	if len(qs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Questions for you, not answered yet\n")
	room := budget * questionsShare / 100
	for i, q := range qs {
		shown := q
		limit := budget * questionShare / 100
		cut := len(q.Text) > limit
		if cut {
			shown.Text = strings.ToValidUTF8(q.Text[:limit], "") + "…"
		}
		s := strings.TrimPrefix(formatMessage(shown, labels.Label(q.Agent)), "lucid: ")
		if cut {
			// Said after the fence: lucid's words, not the asker's. The
			// text's own guillemets are escaped, so the first » closes it.
			s = strings.Replace(s, "»", "» (cut: `lucid inbox` shows it whole)", 1)
		}
		n := len(qs) - i
		more := fmt.Sprintf("%d more %s: `lucid inbox --unanswered`\n", n, present.Plural(n, "question", "questions"))
		if b.Len()+len(s)+len(more) > room {
			b.WriteString(more)
			d.MoreQuestions = n
			break
		}
		b.WriteString(s)
		d.Questions = append(d.Questions, q)
	}
	return b.String()
}

func readOptional(path string, limit int64) (string, error) {
	b, err := gitstore.ReadFileIfExists(path, limit)
	return string(b), err
}

// stripComments removes HTML comments, such as the template's explanation
// in plan.md, which agents need not pay for on every start.
func stripComments(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "-->")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+3:]
	}
}

// clip cuts s to at most n bytes at a line end, and says where the rest is.
func clip(s string, n int, rest string) string {
	if len(s) <= n {
		return s
	}
	note := "\n… (cut"
	if rest != "" {
		note += ": " + rest
	}
	note += ")"
	cut := max(n-len(note), 0)
	if i := strings.LastIndexByte(s[:cut], '\n'); i > 0 {
		cut = i
	} else {
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
	}
	return s[:cut] + note
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
