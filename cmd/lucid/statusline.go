package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lucid-dev/lucid/claims"
	"github.com/lucid-dev/lucid/client/clients"
	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/guard"
	"github.com/lucid-dev/lucid/hooks"
)

func init() {
	t := clients.Default().Title()
	register(&command{name: "statusline", summary: "print the status line for " + t + " (run by " + t + ")", run: runStatusLine})
}

func runStatusLine(c *cli, args []string) error {
	f := newFlags("statusline", `lucid statusline

`+clients.Default().Title()+`'s status line (lucid init --statusline registers it): reads the
status payload on stdin and prints one short line. Inside lich it says
"<file> also edited by <session>" while another lich session's edit of a
file this session edited is under 10 minutes old; otherwise it counts the
active claims, or prints nothing. It never fails: trouble prints nothing.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	var in struct {
		Cwd       string `json:"cwd"`
		Workspace struct {
			CurrentDir string `json:"current_dir"`
		} `json:"workspace"`
	}
	b, _ := io.ReadAll(io.LimitReader(c.stdin, 1<<20))
	json.Unmarshal(b, &in)
	dir := in.Workspace.CurrentDir
	if dir == "" {
		dir = in.Cwd
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	now := time.Now()
	if s := guard.LichStatus(dir, os.Getenv("LICH_SESSION_ID"), now); s != "" {
		fmt.Fprintln(c.stdout, s)
		return nil
	}
	repo, err := gitstore.Find(dir)
	if err != nil || !repo.Initialised() {
		return nil
	}
	set, err := claims.LoadClaims(repo, now)
	if err != nil {
		return nil
	}
	if n := len(set.ActiveClaims()); n > 0 {
		fmt.Fprintf(c.stdout, "lucid: %d active %s\n", n, hooks.Plural(n, "claim", "claims"))
	}
	return nil
}
