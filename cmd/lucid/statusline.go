package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/lich/lichguard"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	t := clients.Default().Title()
	register(&command{name: "statusline", summary: "print the status line for " + t + " (run by " + t + ")", run: runStatusLine})
}

func runStatusLine(c *cli, args []string) error {
	f := newFlags("statusline", `lucid statusline

`+clients.Default().Title()+`'s status line (lucid init --statusline registers it): reads the
status payload on stdin and prints one short line, in lich's words:
"<file> also edited by <agent>" while the newest note this session's agents
were given of another agent's (or lich session's) edit of a file they were
about to write is under 10 minutes old; otherwise it counts the active
claims, or prints nothing. It never fails: trouble prints nothing.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	var in struct {
		SessionID string `json:"session_id"`
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
	// The news of another agent's edit is kept for the lich session, or
	// else for the session of Claude Code's that shows this line.
	session := os.Getenv("LICH_SESSION_ID")
	if session == "" {
		session = in.SessionID
	}
	if s := lichguard.Status(dir, session, now); s != "" {
		fmt.Fprintln(c.stdout, s)
		return nil
	}
	repo, err := gitstore.Find(dir)
	if err != nil || !repo.Initialised() {
		return nil
	}
	set, err := claims.Load(repo, now)
	if err != nil {
		return nil
	}
	if n := len(set.ActiveClaims()); n > 0 {
		fmt.Fprintf(c.stdout, "lucid: %d active %s\n", n, present.Plural(n, "claim", "claims"))
	}
	return nil
}
