package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/talk"
)

func init() {
	register(&command{name: "tell", summary: "send another agent (or a person, or all) a message", run: runTell})
}

// agentNames is how the talking commands' help names an agent.
const agentNames = `AGENT is an agent's id, its label as lucid prints it (tester·a3f9c1;
lucid agents lists them), a teammate's name, lead (the lead of your own
session), all (every other agent) or human (a person at the command line).`

func runTell(c *cli, args []string) error {
	f := newFlags("tell", `lucid tell AGENT TEXT

Sends AGENT a message: an entry in the log addressed to it, which reaches
it once, with its next tool call, set apart from the news, whichever
client runs it. Other agents see it in lucid log only. Prints the
message's id.

`+agentNames)
	asJSON := f.Bool("json", false, "print the message as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	return send(c, "tell", f.Args(), false, nil, *asJSON)
}

// send is lucid tell and lucid ask: args are AGENT TEXT...; claim, for a
// request for another agent's claim, its globs as given (a folder is
// everything in it, as lucid claim reads it).
func send(c *cli, name string, args []string, ask bool, claim []string, asJSON bool) error {
	if len(args) < 2 || strings.TrimSpace(strings.Join(args[1:], " ")) == "" {
		return usageErr("say to whom and what: lucid %s AGENT \"TEXT\"", name)
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	from, err := agent()
	if err != nil {
		return err
	}
	book, err := address.Open(repo, identity.Naming(), time.Now(), claims.TTL())
	if err != nil {
		return err
	}
	to, err := book.Resolve(from, args[0])
	if err != nil {
		return usageErr("%v", err)
	}
	if !to.Ended.IsZero() {
		return fmt.Errorf("%s has ended (%s) and will read nothing more: tell another agent, or its lead (lucid agents lists them)", to.Label, present.Ago(to.Ended, time.Now()))
	}
	if to.ID == logformat.ToAll && claim != nil {
		return usageErr("--for-claim: name the agent that holds the claim, not all")
	}
	for i, g := range claim {
		claim[i] = claims.FolderGlob(repo.Top, g)
	}
	e, err := talk.Send(repo, from, []string{to.ID}, strings.Join(args[1:], " "), ask, claim)
	if err != nil {
		return usageErr("%v", err)
	}
	if asJSON {
		return c.printJSON(e)
	}
	fmt.Fprintln(c.stdout, e.ID)
	if to.Silent > 0 {
		fmt.Fprintf(c.stderr, "lucid: %s has made no tool call for %s and may have ended: it reads this only if it comes back\n",
			to.Label, to.Silent.Round(time.Minute))
	}
	return nil
}
