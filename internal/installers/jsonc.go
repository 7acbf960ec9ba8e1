package installers

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/gitstore"
)

// Gemini CLI and Qwen Code read their settings and trusted folders as JSON
// that may hold comments; doctor reads them the same way.

// ReadJSONC reads a JSON file that may hold // and /* */ comments into v;
// a missing or empty file leaves v as it is. A file of the user's home
// (home) is read as ReadHomeFile reads it, a project's under gitstore's
// rules.
func ReadJSONC(path string, home bool, v any) error {
	var b []byte
	var err error
	if home {
		b, err = ReadHomeFile(&path)
	} else {
		b, err = gitstore.ReadFile(path, gitstore.MaxSettings)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	b = StripJSONComments(b)
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errors.New(path + ": not valid JSON (" + err.Error() + "): fix it")
	}
	return nil
}

// StripJSONComments blanks // and /* */ comments outside strings.
func StripJSONComments(b []byte) []byte {
	out := bytes.Clone(b)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// RealPath is p with its symbolic links resolved, or cleaned where it
// cannot be.
func RealPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
