package main

func init() {
	register(&command{name: "ask", summary: "ask another agent (or a person) a question, or for its claim", run: runAsk})
}

func runAsk(c *cli, args []string) error {
	f := newFlags("ask", `lucid ask AGENT TEXT
lucid ask AGENT --for-claim GLOB TEXT

Asks AGENT a question that wants an answer: like lucid tell, and it stays in
AGENT's lucid inbox (and in its digest after its conversation is
compacted) until it answers with lucid reply ID. Prints the question's id.

With --for-claim, asks AGENT to hand over its claim on GLOB (repeatable),
saying why in TEXT: it is told the command that hands the claim to you,
lucid release GLOB --to YOU, and you are told when it does.

`+agentNames)
	forClaim := f.StringArrayP("for-claim", "", nil, "ask for the agent's claim on `GLOB` (repeatable)")
	asJSON := f.Bool("json", false, "print the question as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	return send(c, "ask", f.Args(), true, *forClaim, *asJSON)
}
