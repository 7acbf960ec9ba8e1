package main

func init() {
	register(&command{name: "web", summary: "serve a live page of the agents, claims, log and plan (lucid web --help)",
		run: func(c *cli, args []string) error { return runView(c, "web", args) }})
}
