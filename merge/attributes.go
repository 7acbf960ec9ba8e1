package merge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// AttrLine is the line of .gitattributes that gives the log lucid's
// merge driver.
const AttrLine = gitstore.LogName + " merge=lucid"

// attrComment heads a .gitattributes that lucid created. Uninstall removes
// the file only when it holds nothing else but this and AttrLine: a file
// the user made, even one left empty, stays.
const attrComment = "# Added by lucid init: merge the log with lucid's merge driver (lucid uninstall removes it)."

const attributesName = ".gitattributes"

// isAttrLine reports whether line gives the log lucid's driver and nothing
// else: AttrLine, however spaced, or with the pattern anchored ("/.lucid/...").
func isAttrLine(line string) bool {
	f := strings.Fields(line)
	return len(f) == 2 && (f[0] == gitstore.LogName || f[0] == "/"+gitstore.LogName) && f[1] == "merge=lucid"
}

// attributesPath returns the path of the work tree's top .gitattributes,
// following a symbolic link to the file it names.
func attributesPath(repo *gitstore.Repo) string {
	p := filepath.Join(repo.Top, attributesName)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// readAttributes returns the file's content, its mode, and whether it exists.
func readAttributes(path string) (string, os.FileMode, bool, error) {
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", 0o644, false, nil
	}
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a file: move it away, then run lucid again", path)
	}
	if err != nil {
		return "", 0, false, err
	}
	data, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	if err != nil {
		return "", 0, false, err
	}
	return string(data), info.Mode().Perm(), true, nil
}

// hasAttribute reports whether the work tree's .gitattributes has AttrLine.
func hasAttribute(repo *gitstore.Repo) bool {
	text, _, _, _ := readAttributes(attributesPath(repo))
	for line := range strings.Lines(text) {
		if isAttrLine(line) {
			return true
		}
	}
	return false
}

// addAttribute appends AttrLine to .gitattributes, creating the file if it
// is missing, and reports what it did ("" when the line was there). The
// file's other lines stay as they are; the new line ends as the file's
// first line does ("\r\n" or "\n"), and a last line without its newline
// gets one first.
func addAttribute(repo *gitstore.Repo) (string, error) {
	path := attributesPath(repo)
	text, mode, exists, err := readAttributes(path)
	if err != nil || hasAttribute(repo) {
		return "", err
	}
	eol := "\n"
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		eol = "\r\n"
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += eol
	}
	what := "added " + AttrLine
	if !exists {
		text = attrComment + eol
		what = "created with " + AttrLine
	}
	text += AttrLine + eol
	if err := gitstore.WriteFileAtomic(path, []byte(text), mode); err != nil {
		return "", err
	}
	return what, nil
}

// removeAttribute removes the lines that addAttribute adds and reports what
// it did ("" when there was nothing to remove). It removes the file when
// nothing else is left in a file that lucid created.
func removeAttribute(repo *gitstore.Repo) (string, error) {
	path := attributesPath(repo)
	text, mode, exists, err := readAttributes(path)
	if err != nil || !exists {
		return "", err
	}
	var kept strings.Builder
	removed, ours, rest := false, false, false
	for line := range strings.Lines(text) {
		switch {
		case isAttrLine(line):
			removed = true
		case strings.TrimRight(line, "\r\n") == attrComment:
			ours = true
		default:
			kept.WriteString(line)
			if strings.TrimSpace(line) != "" {
				rest = true
			}
		}
	}
	if !removed {
		return "", nil
	}
	if ours && !rest {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "removed (lucid had created it)", nil
	}
	if err := gitstore.WriteFileAtomic(path, []byte(kept.String()), mode); err != nil {
		return "", err
	}
	return "removed " + AttrLine, nil
}
