package shell

import (
	"slices"
	"testing"
)

// TestFormatWrites checks that the writes of formatters and fixers are
// marked as theirs (Write.Format), and no other.
func TestFormatWrites(t *testing.T) {
	formatters := []string{"prettier --write", "eslint --fix", "go fmt", "black", "gofmt -w", "clang-format -i"}
	for _, cmd := range []string{"prettier --write .", "npx eslint --fix src/a.js", "go fmt ./...", "black src",
		"gofmt -w x.go", "clang-format -i a.c", "find . -delete", "tar xzf missing.tgz", "rsync -a src/ dst/",
		"sed -i s/a/b/ x.go", "awk -i inplace 1 x.txt", "echo x > y && prettier -w z"} {
		ws := analyze(cmd, "/repo", "", allDirs{}).Writes
		if len(ws) == 0 {
			t.Errorf("%s: no write", cmd)
		}
		for _, w := range ws {
			if want := slices.Contains(formatters, w.By); w.Format != want {
				t.Errorf("%s: %s [%s] Format %v, want %v", cmd, w.Path, w.By, w.Format, want)
			}
		}
	}
}
