package main

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/talk"
)

func init() {
	register(&command{name: "reply", summary: "answer a message or a question", run: runReply})
}

func runReply(c *cli, args []string) error {
	f := newFlags("reply", `lucid reply ID TEXT

Answers the message ID (as lucid inbox and the message itself show it):
a message to its sender, which reaches it once, with its next tool call,
or in lucid inbox for a person. A question answered leaves your inbox's
unanswered list. Prints the reply's id.`)
	asJSON := f.Bool("json", false, "print the reply as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() < 2 || strings.TrimSpace(strings.Join(f.Args()[1:], " ")) == "" {
		return usageErr("say which message and what: lucid reply ID \"TEXT\"")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	from, err := agent()
	if err != nil {
		return err
	}
	e, _, err := talk.Reply(repo, from, f.Arg(0), strings.Join(f.Args()[1:], " "))
	if err != nil {
		return usageErr("%v", err)
	}
	if *asJSON {
		return c.printJSON(e)
	}
	fmt.Fprintln(c.stdout, e.ID)
	return nil
}
