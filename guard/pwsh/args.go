package pwsh

import (
	"fmt"
	"strings"
)

// Script reads the words of a PowerShell program's command line (pwsh,
// or Windows PowerShell's powershell, args without the name) for the
// script it runs: the text of -Command (the rest of the words, joined
// as PowerShell joins them), and the folder of -WorkingDirectory ("" when
// not given). ok is false where it runs none lucid can read: unsure then
// says why, or is "" where nothing runs (-Version, -Command - reading
// standard input, which is not followed).
func Script(args []Word, windows bool) (script, workdir string, ok bool, unsure string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return "", "", false, unsureCall
		}
		s := a.Text
		if len(s) < 2 || s[0] != '-' && s[0] != '/' {
			if windows {
				script, _, ok, unsure = joinWords(args[i:])
				return script, workdir, ok, unsure
			}
			// pwsh takes its first plain word for a script file.
			return "", "", false, fmt.Sprintf(unsureScript, s)
		}
		name := strings.ToLower(s[1:])
		if j := strings.IndexByte(name, ':'); j >= 0 {
			name = name[:j]
		}
		switch {
		case prefixOf(name, "command", 1) || name == "commandwithargs" || name == "cwa":
			if i+1 < len(args) && args[i+1].Known && args[i+1].Text == "-" {
				return "", "", false, ""
			}
			script, _, ok, unsure = joinWords(args[i+1:])
			return script, workdir, ok, unsure
		case prefixOf(name, "file", 1):
			f := ""
			if i+1 < len(args) {
				f = args[i+1].Text
			}
			return "", "", false, fmt.Sprintf(unsureScript, f)
		case prefixOf(name, "encodedcommand", 1) || name == "ec":
			return "", "", false, unsureEnc
		case prefixOf(name, "workingdirectory", 2) || name == "wd":
			if i+1 < len(args) {
				i++
				if !args[i].Known {
					return "", "", false, unsureDir
				}
				workdir = args[i].Text
			}
		case prefixOf(name, "executionpolicy", 2) || name == "ep" || prefixOf(name, "outputformat", 1) || name == "of" ||
			prefixOf(name, "inputformat", 2) || name == "if" || prefixOf(name, "version", 1) || prefixOf(name, "configurationname", 2) ||
			name == "config" || prefixOf(name, "windowstyle", 1) || prefixOf(name, "settingsfile", 2) || prefixOf(name, "custompipename", 2) ||
			prefixOf(name, "psconsolefile", 2) || prefixOf(name, "configurationfile", 14):
			i++
		}
	}
	return "", "", false, ""
}

// prefixOf reports whether s is full's first n letters at least.
func prefixOf(s, full string, n int) bool { return len(s) >= n && strings.HasPrefix(full, s) }

// joinWords is the script the words after -Command make: PowerShell
// joins them with spaces.
func joinWords(args []Word) (string, string, bool, string) {
	var b strings.Builder
	for i, a := range args {
		if !a.Known {
			return "", "", false, unsureCall
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Text)
	}
	return b.String(), "", true, ""
}
