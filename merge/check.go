package merge

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/setup"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// Check checks the merge driver's set-up, as git will see it when it
// merges: that the log has the merge=lucid attribute, that
// merge.lucid.driver is lucid's, and that the driver, run as git runs it
// (through sh, with lucid found on PATH), merges three small logs as
// lucid does. It runs git and the driver.
func Check(repo *gitstore.Repo) []setup.Finding {
	findings := []setup.Finding{checkAttribute(repo)}
	driver, f := checkConfig(repo)
	findings = append(findings, f)
	if driver != "" {
		findings = append(findings, checkRuns(repo, driver))
	}
	return findings
}

func checkAttribute(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "merge attribute"}
	out, err := git(repo.Top, "check-attr", "merge", "--", gitstore.LogName)
	if err != nil {
		f.Detail, f.Fix = err.Error(), "run `git check-attr merge -- "+gitstore.LogName+"` to see why git fails"
		return f
	}
	value := out[strings.LastIndex(out, ": ")+2:]
	if value == "lucid" {
		f.OK, f.Detail = true, gitstore.LogName+" has merge=lucid"
		return f
	}
	f.Detail = fmt.Sprintf("%s has merge: %s, so git merges it as text (with conflicts)", gitstore.LogName, value)
	f.Fix = "run `lucid init` to add `" + AttrLine + "` to .gitattributes"
	if hasAttribute(repo) {
		f.Fix = "another .gitattributes line (later, or in a deeper folder) overrides `" + AttrLine + "`: remove it"
	}
	return f
}

// checkConfig returns the driver command when it is lucid's.
func checkConfig(repo *gitstore.Repo) (string, setup.Finding) {
	f := setup.Finding{Check: "merge driver config"}
	out, err := git(repo.Top, "config", "--show-origin", "--get", driverKey)
	switch {
	case gitstore.GitExitCode(err) == 1:
		f.Detail = driverKey + " is not set: git would merge the log as text, with conflicts"
		f.Fix = "run `lucid init`"
		return "", f
	case err != nil:
		f.Detail, f.Fix = err.Error(), "repair the git config that git complains about"
		return "", f
	}
	origin, value, _ := strings.Cut(out, "\t")
	origin = strings.TrimPrefix(origin, "file:")
	if !isOurs(value) {
		f.Detail = fmt.Sprintf("%s is %q (in %s), not lucid's", driverKey, value, origin)
		f.Fix = "run `lucid init --force` to replace it"
		return "", f
	}
	f.OK, f.Detail = true, fmt.Sprintf("%s is lucid's (in %s)", driverKey, origin)
	if value != DriverCommand {
		f.Detail += ", in an older form; `lucid init` updates it"
	}
	return value, f
}

// checkRuns runs the driver command on three small logs whose right
// merge differs both from ours left as it was and from what git
// merge-file --union (the fallback) makes: both sides add the same two
// entries, in different orders, and theirs adds a third.
func checkRuns(repo *gitstore.Repo, command string) setup.Finding {
	f := setup.Finding{Check: "merge driver runs"}
	fail := func(detail, fix string) setup.Finding {
		f.Detail, f.Fix = detail, fix
		return f
	}
	dir, err := os.MkdirTemp("", "lucid-doctor-*")
	if err != nil {
		return fail(err.Error(), "make room in the temp folder")
	}
	defer os.RemoveAll(dir)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var lines []string
	for i, text := range []string{"base", "one", "two", "three"} {
		line, err := logformat.EncodeEntry(logformat.NewEntry(at.Add(time.Duration(i)*time.Second), "lucid-doctor", logformat.KindNote, text))
		if err != nil {
			return fail(err.Error(), "")
		}
		lines = append(lines, string(line))
	}
	files := map[string]string{"O": lines[0], "A": lines[0] + lines[1] + lines[2], "B": lines[0] + lines[2] + lines[1] + lines[3]}
	want := lines[0] + lines[1] + lines[2] + lines[3]
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return fail(err.Error(), "make room in the temp folder")
		}
	}
	argv := strings.NewReplacer(
		"%O", shellword.Quote(filepath.Join(dir, "O")),
		"%A", shellword.Quote(filepath.Join(dir, "A")),
		"%B", shellword.Quote(filepath.Join(dir, "B")),
		"%L", "7",
		"%P", shellword.Quote(gitstore.LogName),
	).Replace(command)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", argv)
	cmd.Dir = repo.Top
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	got, _ := os.ReadFile(filepath.Join(dir, "A"))
	if runErr == nil && string(got) == want {
		f.OK, f.Detail = true, "the driver merged a test log as lucid does"
		return f
	}
	why := firstLine(stderr.String())
	if why == "" && runErr != nil {
		why = runErr.Error()
	}
	if why == "" {
		why = "it wrote a result that lucid would not"
	}
	return fail("the driver did not merge a test log as lucid does: "+why,
		"put `lucid` on the PATH that git runs with (`command -v lucid` must find it); until then merges fall back to git merge-file --union")
}
