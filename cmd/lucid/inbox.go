package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/shellword"
	"github.com/lucid-dev/lucid/internal/talk"
)

func init() {
	register(&command{name: "inbox", summary: "list the messages for you and the questions you asked", run: runInbox})
}

func runInbox(c *cli, args []string) error {
	f := newFlags("inbox", `lucid inbox [--unanswered] [--json]

Lists the messages addressed to you (to all included), oldest first, the
questions among them marked answered or not, and the questions you asked,
with their replies. You are the agent whose shell runs it, else a person
(human): agents' replies to a person's messages come here.`)
	unanswered := f.Bool("unanswered", false, "list only the questions not answered yet")
	asJSON := f.Bool("json", false, "print the inbox as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("inbox takes no arguments")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	me, err := agent()
	if err != nil {
		return err
	}
	items, err := talk.Inbox(repo, me)
	if err != nil {
		return err
	}
	if *unanswered {
		kept := items[:0]
		for _, it := range items {
			if it.Ask && !it.Answered {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if *asJSON {
		type reply struct {
			ID    string `json:"id"`
			Agent string `json:"agent"`
			Text  string `json:"text"`
		}
		type item struct {
			logformat.Entry
			Sent     bool    `json:"sent,omitempty"`
			Answered bool    `json:"answered,omitempty"`
			Replies  []reply `json:"replies,omitempty"`
		}
		out := []item{}
		for _, it := range items {
			j := item{Entry: it.Entry, Sent: it.Sent, Answered: it.Answered}
			for _, r := range it.Replies {
				j.Replies = append(j.Replies, reply{r.ID, r.Agent, r.Text})
			}
			out = append(out, j)
		}
		return c.printJSON(out)
	}
	if len(items) == 0 {
		fmt.Fprintln(c.stdout, "nothing for you")
		return nil
	}
	labels, now := present.NewLabeler(repo, identity.Naming()), time.Now()
	for _, it := range items {
		fmt.Fprintln(c.stdout, inboxLine(it, labels, now))
	}
	return nil
}

// inboxLine is one item of lucid inbox.
func inboxLine(it talk.Item, labels *present.Labeler, now time.Time) string {
	e := it.Entry
	ago := present.Ago(e.Time(), now)
	text := escape.Words(e.Text)
	globs := escape.Line(shellword.Join(e.Claim)) // an asker's, as it typed them
	if it.Sent {
		var to []string
		for _, t := range e.To {
			to = append(to, labels.Label(t))
		}
		line := fmt.Sprintf("%s  you asked %s (%s): %s", e.ID, strings.Join(to, ", "), ago, text)
		if len(e.Claim) > 0 {
			line = fmt.Sprintf("%s  you asked %s for its claim on %s (%s): %s", e.ID, strings.Join(to, ", "), globs, ago, text)
		}
		if !it.Answered {
			return line + "  [no answer yet]"
		}
		for _, r := range it.Replies {
			line += fmt.Sprintf("\n    %s answered (%s): %s", labels.Label(r.Agent), present.Ago(r.Time(), now), escape.Words(r.Text))
		}
		return line
	}
	from := labels.Label(e.Agent)
	switch {
	case e.Kind == logformat.KindHandoff:
		return fmt.Sprintf("%s  %s handed you its claim on %s (%s)", e.ID, from, globs, ago)
	case e.Kind == logformat.KindRelease:
		return fmt.Sprintf("%s  %s released your claim on %s (%s): %s", e.ID, from, globs, ago, text)
	case len(e.Claim) > 0:
		line := fmt.Sprintf("%s  %s asks for your claim on %s (%s): %s", e.ID, from, globs, ago, text)
		if !it.Answered {
			line += fmt.Sprintf("  [to hand it over: %s; to refuse: lucid reply %s \"why\"]", claims.HandCommand(e.Claim, e.Agent), e.ID)
		}
		return line
	case e.Ask:
		line := fmt.Sprintf("%s  question from %s (%s): %s", e.ID, from, ago, text)
		if !it.Answered {
			line += fmt.Sprintf("  [unanswered: lucid reply %s \"…\"]", e.ID)
		}
		return line
	case e.ReplyTo != "":
		return fmt.Sprintf("%s  %s replied to %s (%s): %s", e.ID, from, e.ReplyTo, ago, text)
	}
	return fmt.Sprintf("%s  message from %s (%s): %s", e.ID, from, ago, text)
}
