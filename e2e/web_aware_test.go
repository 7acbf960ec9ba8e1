package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// With leases on, an agent's write leases its file, and two agents write
// one file with no claim between them: the page shows the lease as one (on
// the claims and on the tree) and the file both edited, and lucid watch
// says the same.
func TestWebEditsAndLeases(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.run("init", "--leases", "on")
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	w.hook("SessionStart", "SessionStart-lead.json", webB, nil)
	if out := w.edit(webA, "src/auth.go"); strings.Contains(out, "deny") {
		t.Fatalf("A's first edit: %s", out)
	}
	w.edit(webB, "README.md")
	if out := w.edit(webA, "README.md"); !strings.Contains(out, "deny") {
		t.Fatalf("A's edit of the file B leased was not denied: %s", out)
	}
	w.hook("Stop", "Stop-lead.json", webB, nil) // B's turn ends, and its lease
	if out := w.edit(webA, "README.md"); !strings.Contains(out, "README.md was changed since your last write of it by lead·0b2182") {
		t.Fatalf("A, about to edit what B just edited, was told %s", out)
	}

	u := w.serve()
	do(t, ctx, chromedp.Navigate(u))
	view(t, ctx, "tree")
	lease := `[...document.querySelectorAll('#view-tree .claim.leased')].find(e => e.innerText.includes("src/auth.go"))`
	waitPage(t, ctx, "the lease among the claims", lease)
	if got := eval[string](t, ctx, lease+`.innerText`); !strings.Contains(got, "src/auth.go") || !strings.Contains(got, "lead·30df32") || !strings.Contains(got, "lease: editing it, until its turn ends") {
		t.Errorf("the lease shows as %q", got)
	}
	onTree := `document.querySelector('#view-tree .file[data-path="src/auth.go"] .on.lease')`
	waitPage(t, ctx, "the lease on the tree", onTree)
	if got := eval[string](t, ctx, onTree+`.innerText`); !strings.Contains(got, "lead·30df32 editing it (lease)") {
		t.Errorf("src/auth.go on the tree shows %q", got)
	}
	shared := `document.querySelector('#view-tree .editing .shared[data-editing="README.md"]')`
	waitPage(t, ctx, "README.md edited by both", shared)
	if got := eval[string](t, ctx, shared+`.innerText`); !strings.Contains(got, "lead·30df32") || !strings.Contains(got, "lead·0b2182") {
		t.Errorf("README.md among the files edited lately shows %q, want both agents", got)
	}
	screenshot(t, ctx, "edits-and-leases")

	frame := w.run("watch", "--once")
	for _, want := range []string{"lead·30df32 holds src/auth.go under a lease", "edited README.md: lead·30df32 under a minute ago, lead·0b2182 under a minute ago"} {
		if !strings.Contains(frame, want) {
			t.Errorf("lucid watch --once lacks %q:\n%s", want, frame)
		}
	}
}
