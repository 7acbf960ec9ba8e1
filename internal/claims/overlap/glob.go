package overlap

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Match reports whether a claim glob covers path, a slash-separated path
// relative to the work tree's top with no "." or ".." segments. It is
// doublestar.Match, except that a glob that is not valid (see validGlob)
// matches nothing: Match alone accepts "a}" for the unbalanced "{a,b}}".
// Globs decides on the same terms, so a claim that was granted and
// the write guard never disagree.
func Match(glob, path string) bool {
	if !validGlob(glob) {
		return false
	}
	ok, err := doublestar.Match(glob, path)
	return ok && err == nil
}

// validGlob reports whether glob is valid UTF-8 and doublestar.ValidatePattern
// accepts it. UTF-8 matters because doublestar expands braces by joining
// bytes: "{\xdd}\x87" matches U+0747, which neither half spells.
func validGlob(glob string) bool {
	return utf8.ValidString(glob) && doublestar.ValidatePattern(glob)
}

// Globs reports whether some path matches both globs under Match,
// whether or not such a file exists: it decides on the patterns. A path here
// is what Match takes: non-empty segments joined by '/', none of them
// "." or "..". The answer is exact for every glob Clean returns. For
// other valid globs, which doublestar reads in ways no automaton follows
// (see exactGlob), it may report an overlap no path has, and never misses
// one. An invalid glob overlaps nothing. It takes a few microseconds for
// globs like the ones agents write.
func Globs(a, b string) bool {
	_, ok := Witness(a, b)
	return ok
}

// Clean checks a claim glob as a user typed it, relative to the work
// tree's top, and returns it in the form claims keep: "./" and empty
// segments dropped ("./a//b" is "a/b"), and a trailing '/' meaning the
// folder and everything under it ("src/" is "src/**", which Match
// matches for "src" itself too). It refuses an empty glob, an absolute one,
// one with a ".." segment (also as a whole brace alternative, "{..,a}/x"),
// one doublestar cannot parse, and one doublestar reads in a way no regular
// language describes (see exactGlob: a class that can match '/', like
// "[!.]"; "src/{**,*.go}", which doublestar does not match for "src"), so
// that Globs is exact for every glob it returns.
func Clean(glob string) (string, error) {
	switch {
	case glob == "":
		return "", fmt.Errorf("empty claim glob: name files relative to the work tree's top, like 'src/**'")
	case !utf8.ValidString(glob):
		return "", fmt.Errorf("claim glob %q is not valid UTF-8: type the file names as they are", glob)
	case strings.HasPrefix(glob, "/"):
		return "", fmt.Errorf("claim glob %q is absolute: write it relative to the work tree's top, like %q", glob, strings.TrimLeft(glob, "/"))
	case !doublestar.ValidatePattern(glob):
		return "", fmt.Errorf("claim glob %q is not a valid glob (an unclosed '[' or '{', a stray '}', or a trailing '\\'): fix or escape it", glob)
	}
	segs := splitSegments(glob)
	folder := segs[len(segs)-1] == ""
	var out []string
	for _, s := range segs {
		if s == "" || s == "." {
			continue
		}
		if hasDotDot(s) {
			return "", fmt.Errorf("claim glob %q has a '..' segment: name paths inside the work tree, relative to its top, without '..'", glob)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return "", fmt.Errorf("claim glob %q names the whole work tree: write '**' if that is what you mean", glob)
	}
	if folder && out[len(out)-1] != "**" {
		out = append(out, "**")
	}
	clean := strings.Join(out, "/")
	if why := exactGlob(clean); why != "" {
		return "", fmt.Errorf("claim glob %q %s", glob, why)
	}
	return clean, nil
}

// splitSegments splits a valid glob at each '/' that separates segments:
// not escaped, not inside a class or a brace.
func splitSegments(glob string) []string {
	var segs []string
	depth, from := 0, 0
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '\\':
			i++
		case '[':
			_, _, end := parseClass(glob, i)
			i = end - 1
		case '{':
			depth++
		case '}':
			depth--
		case '/':
			if depth == 0 {
				segs = append(segs, glob[from:i])
				from = i + 1
			}
		}
	}
	return append(segs, glob[from:])
}

// hasDotDot reports whether a segment is "..", or holds a ".." that is a
// whole brace alternative at its start or end.
func hasDotDot(seg string) bool {
	s := strings.ReplaceAll(seg, `\.`, ".")
	for i := strings.Index(s, ".."); i >= 0; {
		before := i == 0 || s[i-1] == '{' || s[i-1] == ','
		after := i+2 == len(s) || s[i+2] == '}' || s[i+2] == ','
		if before && after {
			return true
		}
		j := strings.Index(s[i+1:], "..")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
