package doctor

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/setup"
)

// checkFiles checks every file lucid reads (the repository's state files,
// the clients' files named in settings, and .gitattributes) against gitstore's
// rules for reading: a regular file inside the repository, within the size
// of its role. A pulled branch can turn any of them into a FIFO or a link
// to /dev/zero, which every hook would then refuse.
func checkFiles(repo *gitstore.Repo, settings []string) setup.Finding {
	f := setup.Finding{Check: "files"}
	files := repo.StateFiles()
	for _, name := range append(slices.Clip(settings), ".gitattributes") {
		files = append(files, gitstore.StateFile{Path: repo.Abs(name), Limit: gitstore.MaxSettings})
	}
	var bad []string
	repair := false
	for _, sf := range files {
		err := gitstore.CheckFile(sf.Path, sf.Limit)
		var be *gitstore.BadFileError
		switch {
		case errors.As(err, &be):
			bad = append(bad, be.Path+" "+be.Problem)
			repair = repair || be.Repair
		case err != nil:
			bad = append(bad, err.Error())
		}
	}
	if len(bad) == 0 {
		f.OK, f.Detail = true, fmt.Sprintf("%d %s lucid reads, all regular and within their limits", len(files), present.Plural(len(files), "file", "files"))
		return f
	}
	f.Detail = strings.Join(bad, "\n")
	f.Fix = "lucid reads only regular files inside the repository: restore each file named (git checkout -- FILE) or remove it, and shorten one that is too large"
	if repair {
		f.Fix = "run lucid gc, which writes each file of lucid's state named anew as a file of its own (a hard link to one then names the old copy); " + f.Fix
	}
	return f
}

// readFix is what to do about an error reading one of lucid's files.
func readFix(err error) string {
	var bad *gitstore.BadFileError
	var big *gitstore.TooLargeError
	switch {
	case errors.As(err, &bad):
		return "restore it as a regular file (git checkout -- " + bad.Path + ") or remove it"
	case errors.As(err, &big):
		return "shorten " + big.Path
	}
	return "check the file's permissions"
}
