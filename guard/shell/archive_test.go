package shell

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bz2Tar is `tar cf x.tar d b.txt | bzip2 -9`, d holding a.txt: made
// once with the bzip2 command, which Go's library cannot write.
const bz2Tar = "425a6839314159265359116eaae60000b7fb84c99000504001ff80002974009e40000080082000928653283d11a00640" +
	"0115044f534d01a07a09b5356d039627793355e242f507282a97e51c8a603738f822de3d98221142b5904dd58b29e85c" +
	"614680856b9e00d7361515320c5e08c4642d5cdc59e5c5605a0168440880fd39949709b0ec3f1a3a3bb36c41b3b96799" +
	"4443f8bb9229c284808b755730"

func TestArchiveMembers(t *testing.T) {
	members := []string{"pkg/", "pkg/a.go", "pkg/sub/b.go", "README.md", "/abs", "../up"}
	files := slices.DeleteFunc(slices.Clone(members), func(m string) bool { return strings.HasSuffix(m, "/") })
	tarBytes := mustArchive(t, "x.tar", members)
	gz := mustArchive(t, "x.tgz", members)
	// Two gzip members one after the other (cat a.gz b.gz) are one stream.
	half := len(tarBytes) / 2
	var twoGz bytes.Buffer
	for _, part := range [][]byte{tarBytes[:half], tarBytes[half:]} {
		zw := gzip.NewWriter(&twoGz)
		zw.Name = "part" // FNAME, which the header reader skips
		zw.Write(part)
		zw.Close()
	}
	bz, _ := hex.DecodeString(bz2Tar)
	for _, tc := range []struct {
		name string
		b    []byte
		want []string
		ok   bool
	}{
		{"tar", tarBytes, files, true},
		{"tar.gz", gz, files, true},
		{"two gzip members", twoGz.Bytes(), files, true},
		{"tar.bz2", bz, []string{"d/a.txt", "b.txt"}, true},
		{"zip", mustArchive(t, "x.zip", members), files, true},
		{"empty zip", mustArchive(t, "x.zip", nil), nil, true},
		{"xz", []byte("\xfd7zXZ\x00\x00\x04rest"), nil, false},
		{"truncated gzip", gz[:len(gz)/2], nil, false},
		{"truncated zip", mustArchive(t, "x.zip", members)[:40], nil, false},
		{"text", []byte("not an archive at all, just words that go on for a while"), nil, false},
	} {
		got, ok := archiveMembers(tc.b)
		if ok != tc.ok || ok && !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestArchiveBounds checks that an archive past the bounds is not
// listed: lucid then takes it to write anything under its folder.
func TestArchiveBounds(t *testing.T) {
	many := make([]string, maxArchiveMembers+1)
	for i := range many {
		many[i] = "f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "/" + strings.Repeat("y", i%5) + string(rune('0'+i%10))
	}
	for _, name := range []string{"x.tar", "x.zip"} {
		if got, ok := archiveMembers(mustArchive(t, name, many)); ok {
			t.Errorf("%s of %d members: listed %d", name, len(many), len(got))
		}
	}
	// A gzip'ed tar that unpacks to more than maxArchiveUnpacked.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "big", Mode: 0o644, Size: maxArchiveUnpacked + 1, Typeflag: tar.TypeReg})
	zero := make([]byte, 1<<20)
	for n := 0; n <= maxArchiveUnpacked; n += len(zero) {
		tw.Write(zero[:min(len(zero), maxArchiveUnpacked+1-n)])
	}
	tw.Close()
	zw.Close()
	if got, ok := archiveMembers(buf.Bytes()); ok {
		t.Errorf("a tar of %d bytes unpacked: listed %q", maxArchiveUnpacked+1, got)
	}
}

// TestZip64 reads a zip whose end record points to a zip64 record, as
// writers make for large archives.
func TestZip64(t *testing.T) {
	b := mustArchive(t, "x.zip", []string{"a.txt", "b/c.txt"})
	eocd := bytes.LastIndex(b, []byte("PK\x05\x06"))
	count, offset, size := b[eocd+10:eocd+12], b[eocd+16:eocd+20], b[eocd+12:eocd+16]
	var z bytes.Buffer
	z.Write(b[:eocd])
	rec := z.Len()
	z.WriteString("PK\x06\x06")
	z.Write(le64(44))
	z.Write([]byte{45, 0, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	z.Write(le64(uint64(count[0]) | uint64(count[1])<<8))
	z.Write(le64(uint64(count[0]) | uint64(count[1])<<8))
	z.Write(le64(uint64(size[0]) | uint64(size[1])<<8 | uint64(size[2])<<16 | uint64(size[3])<<24))
	z.Write(le64(uint64(offset[0]) | uint64(offset[1])<<8 | uint64(offset[2])<<16 | uint64(offset[3])<<24))
	z.WriteString("PK\x06\x07\x00\x00\x00\x00")
	z.Write(le64(uint64(rec)))
	z.Write([]byte{1, 0, 0, 0})
	z.WriteString("PK\x05\x06\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00")
	got, ok := zipMembers(z.Bytes())
	if want := []string{"a.txt", "b/c.txt"}; !ok || !slices.Equal(got, want) {
		t.Errorf("zip64: got %q, %v; want %q", got, ok, want)
	}
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}

// TestArchiveOnDisk reads archives made in a temporary folder through
// the real disk, as the hook does, and where tar, unzip and bash are at
// hand, runs each command and checks that it made what was reported.
func TestArchiveOnDisk(t *testing.T) {
	archives := map[string][]string{
		"a.tar.gz": {"top/", "top/x.go", "top/y/z.go"},
		"b.zip":    {"lib/", "lib/u.js", "v.js"},
	}
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"tar xzf a.tar.gz", []string{"top/x.go", "top/y/z.go"}},
		{"mkdir -p out && tar -xzf a.tar.gz --strip-components=1 -C out", []string{"out/x.go", "out/y/z.go"}},
		{"tar xzf a.tar.gz top/y", []string{"top/y/z.go"}},
		{"unzip -qo b.zip -d out", []string{"out/lib/u.js", "out/v.js"}},
		{"unzip -qj b.zip", []string{"u.js", "v.js"}},
	} {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for name, members := range archives {
			if err := os.WriteFile(filepath.Join(dir, name), mustArchive(t, name, members), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, w := range Analyze(tc.cmd, dir).Writes {
			rel, _ := filepath.Rel(dir, w.Path)
			got = append(got, rel)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("$ %s: got %q, want %q", tc.cmd, got, tc.want)
		}
		tool, _, _ := strings.Cut(strings.TrimPrefix(tc.cmd, "mkdir -p out && "), " ")
		if _, err := exec.LookPath(tool); err != nil {
			continue
		}
		cmd := exec.Command("bash", "-c", tc.cmd)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("$ %s: %v\n%s", tc.cmd, err, out)
		}
		var made []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if rel, _ := filepath.Rel(dir, p); err == nil && !d.IsDir() && archives[rel] == nil {
				made = append(made, rel)
			}
			return nil
		})
		slices.Sort(made)
		if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(made, want) {
			t.Errorf("$ %s made %q, reported %q", tc.cmd, made, want)
		}
	}
}

// mustArchive is makeArchive (shell_test.go), failing the test on error.
func mustArchive(t *testing.T, name string, members []string) []byte {
	t.Helper()
	b, err := makeArchive(name, members)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzArchiveMembers reads arbitrary bytes as an archive: it never
// panics, and lists no more members than the bound.
func FuzzArchiveMembers(f *testing.F) {
	for _, name := range []string{"x.tar", "x.tgz", "x.zip"} {
		b, _ := makeArchive(name, []string{"a/", "a/b.txt", "c.txt"})
		f.Add(b)
	}
	bz, _ := hex.DecodeString(bz2Tar)
	f.Add(bz)
	f.Fuzz(func(t *testing.T, b []byte) {
		if names, ok := archiveMembers(b); ok && len(names) > maxArchiveMembers {
			t.Fatalf("%d members", len(names))
		}
	})
}

// TestTarFormats checks the tar reader against archive/tar's writer in
// each format: long names in ustar's prefix, pax records and GNU's L
// headers, long link names, links and folders.
func TestTarFormats(t *testing.T) {
	split := strings.Repeat("d/", 60) + "file.txt" // over 100 bytes, split at a slash into ustar's prefix
	whole := strings.Repeat("z", 120) + ".txt"     // one component over 100 bytes: pax or GNU only
	for _, format := range []tar.Format{tar.FormatUSTAR, tar.FormatPAX, tar.FormatGNU} {
		headers := []*tar.Header{
			{Name: "dir/", Typeflag: tar.TypeDir, Mode: 0o755},
			{Name: "dir/a.txt", Typeflag: tar.TypeReg, Mode: 0o644, Size: 3},
			{Name: split, Typeflag: tar.TypeReg, Mode: 0o644, Size: 700},
			{Name: "ln", Typeflag: tar.TypeSymlink, Linkname: "dir/a.txt", Mode: 0o777},
			{Name: "hard", Typeflag: tar.TypeLink, Linkname: "dir/a.txt", Mode: 0o644},
		}
		want := []string{"dir/a.txt", split, "ln", "hard"}
		if format != tar.FormatUSTAR {
			headers = append(headers,
				&tar.Header{Name: whole, Typeflag: tar.TypeReg, Mode: 0o644, Size: 1},
				&tar.Header{Name: "far", Typeflag: tar.TypeSymlink, Linkname: strings.Repeat("l", 150), Mode: 0o777})
			want = append(want, whole, "far")
		}
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, h := range headers {
			h.Format = format
			if err := tw.WriteHeader(h); err != nil {
				t.Fatalf("%v: %v", format, err)
			}
			tw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
		}
		tw.Close()
		got, ok := tarMembers(bytes.NewReader(buf.Bytes()))
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%v: got %q, %v; want %q", format, got, ok, want)
		}
		got, ok = tarMembers(struct{ io.Reader }{bytes.NewReader(buf.Bytes())}) // not seekable: read through
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%v, read through: got %q, %v", format, got, ok)
		}
	}
	if got, ok := tarMembers(bytes.NewReader(bytes.Repeat([]byte{'a'}, 1024))); ok {
		t.Errorf("a bad checksum: listed %q", got)
	}
}

// TestGNUTar reads an archive GNU tar (or whichever tar is at hand) made
// of names too long for a tar header's name field.
func TestGNUTar(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	dir := t.TempDir()
	long := filepath.Join("src", strings.Repeat("deep/", 25), strings.Repeat("n", 110)+".go")
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(long)), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, long), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("x"), 0o644)
	os.Symlink("a.go", filepath.Join(dir, "src", "ln"))
	for _, name := range []string{"a.tar", "a.tar.gz"} {
		cmd := exec.Command("tar", "caf", name, "src")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tar caf %s: %v\n%s", name, err, out)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := archiveMembers(b)
		slices.Sort(got)
		want := []string{"src/" + filepath.ToSlash(long[4:]), "src/a.go", "src/ln"}
		if slices.Sort(want); !ok || !slices.Equal(got, want) {
			t.Errorf("%s: got %q, %v; want %q", name, got, ok, want)
		}
	}
}
