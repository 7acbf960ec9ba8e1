package merge

import (
	"context"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// git runs git in dir and returns its standard output, trimmed of its
// last newline; the error (a *gitstore.GitError) carries git's line of
// complaint and its exit code.
func git(dir string, args ...string) (string, error) {
	out, err := gitstore.RunGit(context.Background(), dir, nil, args...)
	return strings.TrimSuffix(string(out), "\n"), err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}
