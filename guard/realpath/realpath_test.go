package realpath

import (
	"os"
	"path/filepath"
	"testing"
)

// Of lands where the kernel lands: the write the shell makes
// through each path is checked against the file it really changes.
func TestOfAsTheKernel(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, link string) {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	mk("src/deep")
	os.WriteFile(filepath.Join(root, "src/a.go"), nil, 0o644)
	ln("src/deep", "deep")       // relative, to a folder
	ln("src/new.go", "dangling") // to a file not there yet
	ln(root+"/src", "abs")       // absolute
	ln("deep", "chain")          // a link to a link
	ln("loop2", "loop1")         // a loop
	ln("loop1", "loop2")
	ln("../a.go", "src/deep/up") // relative to the link's own folder
	for _, tc := range []struct{ in, want string }{
		{"deep/../a.go", "src/a.go"},
		{"chain/../a.go", "src/a.go"},
		{"dangling", "src/new.go"},
		{"abs/a.go", "src/a.go"},
		{"src/deep/up", "src/a.go"},
		{"src/./deep/../a.go", "src/a.go"},
		{"src/nothere/../a.go", "src/a.go"}, // lexical past what does not exist
		{"src/new/dir/f.go", "src/new/dir/f.go"},
		{"a.go", "a.go"},
	} {
		if got := Of(root + "/" + tc.in); got != filepath.Join(root, tc.want) {
			t.Errorf("Of(%s) = %s, want %s", tc.in, got, filepath.Join(root, tc.want))
		}
	}
	// A loop ends without hanging, somewhere in the loop.
	if got := Of(filepath.Join(root, "loop1")); filepath.Dir(got) != root {
		t.Errorf("a loop of links resolved to %s", got)
	}
}

// A tool's path is its own where absolute, else in the folder it runs in.
func TestInDir(t *testing.T) {
	for _, tc := range []struct{ dir, path, want string }{
		{"/r", "/x/../y.go", "/y.go"},
		{"/r", "a/b.go", "/r/a/b.go"},
		{"/r/sub", "../a.go", "/r/a.go"},
	} {
		if got := InDir(tc.dir, tc.path); got != tc.want {
			t.Errorf("InDir(%q, %q) = %q, want %q", tc.dir, tc.path, got, tc.want)
		}
	}
}
