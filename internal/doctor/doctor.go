// Package doctor is lucid doctor's checks of a repository: the lucid the
// hooks run, lucid's set-up, the merge driver, the files lucid reads, the
// log, the claims, the leases and the lock, around the clients' own checks,
// which the caller hands in.
package doctor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/settings"
	"github.com/lucid-dev/lucid/internal/setup"
	"github.com/lucid-dev/lucid/merge"
)

// Check checks that lucid is set up to work in the repository, as the
// hooks and git will meet it: the binary the hooks run, the hooks, the
// /lucid:dream command, the merge driver (merge.Check), the files lucid
// reads (checkFiles), the log, the claims and the lock. version is this
// binary's `lucid version` line; clients are the checks of the clients'
// set-up, and settings the clients' files (relative to the work tree's
// top) that lucid reads.
func Check(repo *gitstore.Repo, version string, clients []setup.Finding, settingFiles []string) []setup.Finding {
	fs := []setup.Finding{checkBinary(version), checkSetUp(repo)}
	fs = append(fs, clients...)
	fs = append(fs, merge.Check(repo)...)
	return append(fs, checkFiles(repo, settingFiles), checkLog(repo), checkClaims(repo), checkLeases(repo), checkLock(repo))
}

// checkLeases says whether an agent's write takes a lease here, and where
// that choice comes from.
func checkLeases(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "leases"}
	st, err := settings.Load(repo)
	if err != nil {
		f.Detail, f.Fix = err.Error(), "correct "+settings.Name+", or run lucid init --leases on|off, which writes it anew"
		return f
	}
	f.OK = true
	if st.Leases {
		f.Detail = "on (" + st.LeasesFrom + "): an agent's write takes a lease on the file until its turn ends; other sessions' agents may not write it meanwhile"
	} else {
		f.Detail = "off (" + st.LeasesFrom + "): only claims stop a write; agents are told who else just edited a file (lucid init --leases on turns leases on)"
	}
	return f
}

// checkBinary finds the lucid the hooks will run (the first on PATH: the
// registered command is `lucid hook EVENT`), says how it was installed, and
// compares it with this one.
func checkBinary(version string) setup.Finding {
	f := setup.Finding{Check: "lucid on PATH"}
	path, err := exec.LookPath("lucid")
	if err != nil {
		f.Detail = "no lucid on PATH: the hooks and the merge driver do nothing"
		f.Fix = "install it (make install, or go install ./cmd/lucid) into a folder on PATH, such as $(go env GOPATH)/bin"
		return f
	}
	path, _ = filepath.Abs(path)
	in := installedAs(path)
	if in.bad != "" {
		f.Detail, f.Fix = in.bad, in.fix
		return f
	}
	how := ""
	if in.detail != "" {
		how = "; " + in.detail
	}
	self, err := os.Executable()
	if err == nil && gitstore.SameFile(path, self) {
		f.OK, f.Detail = true, path+", this binary"+how
		return f
	}
	out, err := exec.Command(path, "version").Output()
	theirs := strings.TrimSpace(string(out))
	if err == nil && theirs == version {
		f.OK, f.Detail = true, path+", the same version as this one ("+theirs+")"+how
		return f
	}
	if theirs == "" {
		theirs = "it does not run: " + errText(err)
	}
	f.Detail = fmt.Sprintf("the hooks run %s (%s), not this binary (%s)", path, theirs, version)
	f.Fix = "install this version there (make install), or put this binary's folder first on PATH"
	return f
}

func errText(err error) string {
	if err == nil {
		return "no output"
	}
	return err.Error()
}

func checkSetUp(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "set up"}
	if !repo.Initialised() {
		f.Detail, f.Fix = "no .lucid/ in "+repo.Top, "run `lucid init`"
		return f
	}
	f.OK, f.Detail = true, ".lucid/ at "+repo.Top
	return f
}

// checkLog reads the whole log, as the merge driver and lucid dream do,
// though only the head of each line (logstore.Count).
func checkLog(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "log"}
	n, invalid, err := logstore.Count(repo.LogPath())
	switch {
	case err != nil:
		f.Detail, f.Fix = "cannot read "+gitstore.LogName+": "+err.Error(), readFix(err)
	case invalid > 0:
		f.Detail = fmt.Sprintf("%d %s, and %d %s that are not valid entries (every reader skips them)", n, present.Plural(n, "entry", "entries"), invalid, present.Plural(invalid, "line", "lines"))
		f.Fix = "find them with `grep -vn '^{\"id\"' " + gitstore.LogName + "` (a merge without lucid's driver leaves conflict markers) and delete them by hand"
	default:
		f.OK, f.Detail = true, fmt.Sprintf("%d %s, all valid", n, present.Plural(n, "entry", "entries"))
	}
	return f
}

func checkClaims(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "claims"}
	_, bad, err := claimstore.Load(repo)
	if err != nil {
		f.Detail, f.Fix = "cannot read "+repo.ClaimsPath()+": "+err.Error(), readFix(err)
		return f
	}
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		f.Detail, f.Fix = err.Error(), "check "+repo.ClaimsPath()
		return f
	}
	active := len(set.ActiveClaims())
	if bad > 0 {
		f.Detail = fmt.Sprintf("%d %s of %s cannot be read", bad, present.Plural(bad, "line", "lines"), repo.ClaimsPath())
		f.Fix = "run `lucid gc`, which writes the store again without them"
		return f
	}
	f.OK, f.Detail = true, fmt.Sprintf("%d active, %d expired (lucid gc removes those)", active, len(set.Claims)-active)
	return f
}

func checkLock(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "lock"}
	l, err := repo.LockWithin(2 * time.Second)
	var busy *gitstore.LockBusyError
	switch {
	case errors.As(err, &busy):
		holder := busy.Holder
		if holder == "" {
			holder = "a running process"
		}
		f.Detail = repo.LockPath() + " has been held for over 2 s by " + holder
		f.Fix = "wait for it to finish, or end it if it is stuck (the lock frees itself when its holder ends)"
		if busy.Holder == "" {
			f.Fix = "find it with `lsof " + repo.LockPath() + "` (or `fuser`); " + f.Fix
		}
	case err != nil:
		f.Detail, f.Fix = err.Error(), "check the permissions of "+repo.LockPath()
	default:
		l.Unlock()
		f.OK, f.Detail = true, "free"
	}
	return f
}
