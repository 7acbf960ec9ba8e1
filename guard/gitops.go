package guard

import "strings"

// command is op as a shell command, for a message.
func (op GitOp) command() string {
	return shellCommandLine(append([]string{"git"}, op.Args...))
}

// shellCommandLine is words as a shell command, each quoted where the
// shell would read it otherwise.
func shellCommandLine(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}

// shellQuote is s as one shell word.
func shellQuote(s string) string {
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
