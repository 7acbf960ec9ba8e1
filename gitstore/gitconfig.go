package gitstore

import (
	"strings"
)

// ConfigValues returns every value of section.subsection.key in the git
// config file at path, in order (git uses the last), and whether the file
// has a [section "subsection"] header at all. It reads the file itself,
// so that the SessionStart hook can check the driver without running git.
// It follows git's syntax (case-insensitive section and key names, quoted
// values, escapes, comments, continued lines, the old [section.sub] form)
// but not include directives. A file that cannot be read has nothing.
func ConfigValues(path, section, subsection, key string) (values []string, hasSection bool) {
	hasSection = readConfig(path, section, subsection, key, func(v string, _ bool) { values = append(values, v) })
	return values, hasSection
}

// readConfig calls each for every value of section.subsection.key in the
// file at path, in order; bare is a key without "=" (true as a boolean,
// empty as git prints it). It reports whether the section is there.
func readConfig(path, section, subsection, key string, each func(v string, bare bool)) (hasSection bool) {
	data, err := readFile(path)
	if err != nil {
		return false
	}
	return scanConfig(data, section, subsection, key, each)
}

// scanConfig is readConfig of a config file's bytes.
func scanConfig(data []byte, section, subsection, key string, each func(v string, bare bool)) (hasSection bool) {
	in := false
	for rest := string(data); rest != ""; {
		var line string
		line, rest = configLine(rest)
		line = strings.TrimLeft(line, " \t")
		if strings.HasPrefix(line, "[") {
			name, sub, after, ok := configHeader(line)
			if !ok {
				in = false
				continue
			}
			in = strings.EqualFold(name, section) && sub == subsection
			hasSection = hasSection || in
			line = strings.TrimLeft(after, " \t")
		}
		if !in || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, found := strings.Cut(line, "=")
		k = strings.TrimRight(k, " \t")
		if !strings.EqualFold(k, key) {
			continue
		}
		if !found {
			each("", true)
			continue
		}
		each(parseConfigValue(v), false)
	}
	return hasSection
}

// configLine returns the first logical line of s, with continued lines (a
// backslash before the newline, outside quotes) joined, and the rest.
func configLine(s string) (line, rest string) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			return b.String(), s[i+1:]
		case '"':
			quoted = !quoted
			b.WriteByte(c)
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++ // a continued line
				continue
			}
			if i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n' {
				i += 2
				continue
			}
			b.WriteByte(c)
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '#', ';':
			if !quoted {
				// A comment: drop it, up to the line's end.
				j := strings.IndexByte(s[i:], '\n')
				if j < 0 {
					return b.String(), ""
				}
				return b.String(), s[i+j+1:]
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// configHeader reads a section header: [name], [name "sub"] or the old
// [name.sub] (whose subsection git lowercases), and returns what follows
// the closing bracket (git accepts a key there).
func configHeader(line string) (name, sub, after string, ok bool) {
	end := strings.IndexByte(line, ']')
	if end < 0 {
		return "", "", "", false
	}
	inside, after := line[1:end], line[end+1:]
	if q := strings.IndexByte(inside, '"'); q >= 0 {
		// The quoted subsection may hold "]": read it to its closing quote.
		full := line[1:]
		name = strings.TrimRight(full[:q], " \t")
		var b strings.Builder
		i := q + 1
		for ; i < len(full) && full[i] != '"'; i++ {
			if full[i] == '\\' && i+1 < len(full) {
				i++
			}
			b.WriteByte(full[i])
		}
		if i >= len(full) || i+1 >= len(full) || full[i+1] != ']' {
			return "", "", "", false
		}
		return name, b.String(), full[i+2:], true
	}
	name = strings.TrimSpace(inside)
	if dot := strings.IndexByte(name, '.'); dot >= 0 {
		return name[:dot], strings.ToLower(name[dot+1:]), after, true
	}
	return name, "", after, true
}

// parseConfigValue reads a value as git's parse_value does: whitespace outside
// quotes is trimmed at the ends and kept (as spaces) inside, quotes are
// removed, and \n, \t, \b, \\ and \" are read.
func parseConfigValue(v string) string {
	var b strings.Builder
	quoted := false
	space := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if b.Len() > 0 {
				space++
			}
			continue
		}
		for ; space > 0; space-- {
			b.WriteByte(' ')
		}
		switch {
		case c == '"':
			quoted = !quoted
			continue
		case c == '\\' && i+1 < len(v):
			i++
			switch c = v[i]; c {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ConfigValue returns the value git would take for section.key (no
// subsection) from the one config file at path: the last one.
func ConfigValue(path, section, key string) (string, bool) {
	values, _ := ConfigValues(path, section, "", key)
	if len(values) == 0 {
		return "", false
	}
	return values[len(values)-1], true
}

// configBool reads section.key as git reads a boolean: a bare key, true,
// yes, on or a number other than 0 is true; a missing key or anything
// else is false.
func configBool(path, section, key string) bool {
	data, err := readFile(path)
	if err != nil {
		return false
	}
	return dataBool(data, section, key)
}

// dataBool is configBool of a config file's bytes.
func dataBool(data []byte, section, key string) bool {
	v, bare, ok := "", false, false
	scanConfig(data, section, "", key, func(val string, b bool) { v, bare, ok = val, b, true })
	if !ok {
		return false
	}
	if bare {
		return true
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true
	}
	nonzero := false // a number: true unless 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
		nonzero = nonzero || c != '0'
	}
	return nonzero
}
