package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	browserpkg "github.com/lucid-dev/lucid/internal/testkit/browser"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// A person watching sees the agents of two clients while they work at the
// same time: a Claude Code lead holding src/** and a Codex agent denied on
// it, each by its label and client, the claim on the tree, the Codex
// agent waiting on it, and the notice of the denial. lucid watch --once
// and the page in Chromium are both read while both runs are still open.
func TestWatchSeesTwoClientsAtWork(t *testing.T) {
	e := newCodexLucid(t, true)
	claimed, release := e.claudeHolds("src/**", "rework auth")
	var tab context.Context
	if haveBrowser() {
		tab = browser(t)
	}
	url := serveWeb(t, realLucid, e.repo, e.environ())
	patch := "*** Begin Patch\n*** Update File: src/auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks.\n*** End Patch\n"
	var frame, agents, tree string
	var shot []byte
	var frameErr, pageErr error
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		func(*rs.ResponsesRequest) rs.Reply {
			waitFor(claimed)
			return rs.Reply{Calls: []rs.Call{rs.ApplyPatch(patch)}}
		},
		func(*rs.ResponsesRequest) rs.Reply {
			// Both runs are open: the lead waits in its turn, this agent in
			// its own, just denied.
			frame, frameErr = e.output("lucid", "watch", "--once")
			if tab != nil {
				agents, tree, shot, pageErr = readPage(tab, url)
			}
			return rs.Reply{Calls: []rs.Call{rs.Exec("echo waiting")}}
		},
		rs.Say("Codex done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.codexExec(srv, "[[codex-lead]] Edit the auth code.")
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if frameErr != nil {
		t.Fatalf("lucid watch --once: %v\n%s", frameErr, frame)
	}
	t.Logf("lucid watch --once while both worked:\n%s", frame)
	var claude, codex string
	for _, line := range strings.Split(frame, "\n") {
		switch {
		case strings.HasPrefix(line, "  lead·") && strings.Contains(line, " claude working"):
			claude = line
		case strings.HasPrefix(line, "  codex·") && strings.Contains(line, " codex working"):
			codex = line
		}
	}
	if claude == "" || !strings.Contains(claude, "1 claim") {
		t.Errorf("lucid watch does not show the Claude Code lead working with its claim:\n%s", frame)
	}
	if codex == "" || !strings.Contains(codex, "denied by lead·") || !strings.Contains(codex, "on src/auth.go (src/**)") {
		t.Errorf("lucid watch does not show the Codex agent working, denied on the lead's claim:\n%s", frame)
	}
	if !strings.Contains(frame, `holds src/** for «rework auth»`) || !strings.Contains(frame, "[denied] codex·") {
		t.Errorf("lucid watch misses the claim or the notice of the denial:\n%s", frame)
	}
	if tab == nil {
		t.Log("no Chromium: the page was not read")
		return
	}
	if pageErr != nil {
		t.Fatalf("the page: %v", pageErr)
	}
	saveShot(t, "two-clients", shot)
	labels := func(prefix string) bool {
		for _, line := range strings.Split(agents, "\n") {
			if strings.HasPrefix(line, prefix) {
				return true
			}
		}
		return false
	}
	if !labels("lead·") || !labels("codex·") || !strings.Contains(agents, "claude") || !strings.Contains(agents, "codex") ||
		!strings.Contains(agents, "src/auth.go by lead·") {
		t.Errorf("the page's agents do not show both clients' agents, and the Codex agent stopped by the lead's claim:\n%s", agents)
	}
	if !strings.Contains(tree, "auth.go") || !strings.Contains(tree, `for «rework auth»`) {
		t.Errorf("the page's tree does not show the lead's claim over src/auth.go:\n%s", tree)
	}
}

// haveBrowser reports whether a Chromium can be had.
func haveBrowser() bool {
	_, err := browserpkg.Path()
	return err == nil
}

// readPage opens the page at url and returns the text of its agents view
// and of its claims view, with the src folder open.
func readPage(tab context.Context, url string) (agents, tree string, shot []byte, err error) {
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	text := func(id string) chromedp.Action[string] {
		return chromedp.Evaluate[string](`document.getElementById("` + id + `").innerText`)
	}
	fail := func(what string, err error) (string, string, []byte, error) {
		body, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText`))
		return "", "", nil, fmt.Errorf("%s (%v); it shows:\n%s", what, err, body)
	}
	if err = chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return fail("the page did not load", err)
	}
	if _, err = chromedp.Run(ctx, chromedp.Poll[bool](`(() => { try { return document.getElementById("view-agents").innerText.includes("codex·") } catch { return false } })()`)); err != nil {
		return fail("no Codex agent on the page", err)
	}
	if agents, err = chromedp.Run(ctx, text("view-agents")); err != nil {
		return fail("no agents view", err)
	}
	if shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		return fail("no screenshot", err)
	}
	if _, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#nav button[data-view="tree"]').click() || true`)); err != nil {
		return fail("no claims button", err)
	}
	if _, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("view-tree").innerText.includes("auth.go")`)); err != nil {
		return fail("no claimed file on the tree", err)
	}
	tree, err = chromedp.Run(ctx, text("view-tree"))
	return agents, tree, shot, err
}
