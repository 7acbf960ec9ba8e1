package main

func init() {
	register(&command{name: "watch", summary: "show the agents, claims, log and notices live in the terminal",
		run: func(c *cli, args []string) error { return runView(c, "watch", args) }})
}
