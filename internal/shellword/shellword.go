// Package shellword writes strings as words of a POSIX shell command line,
// for the commands lucid prints for agents and people to run (and runs
// itself): a word the shell would read as it is stays bare, any other is
// single-quoted.
package shellword

import "strings"

// Quote is s as one shell word.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	prev := ' '
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("@%+=:,./_-", r):
		case r == '~' && !strings.ContainsRune(" =:", prev): // HEAD~2, not ~user
		default:
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
		prev = r
	}
	return s
}

// Join is words as a command line, each quoted where the shell would read
// it otherwise.
func Join(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}
