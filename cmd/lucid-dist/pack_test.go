package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// allPlatforms are the six a release ships.
var allPlatforms = []platform{
	{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"},
	{"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

// fakeRelease packs small stand-ins for the six platforms' binaries into
// a folder of its own: what the packing does is tested here without the
// minutes six real builds take (dist_test.go builds this machine's).
func fakeRelease(t *testing.T, version string) (release, string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	for _, p := range allPlatforms {
		for _, b := range binaries {
			if p.os == "windows" {
				b += ".exe"
			}
			write(t, filepath.Join(bin, p.os+"_"+p.arch, b), b+" for "+p.os+"/"+p.arch)
		}
	}
	readme := filepath.Join(dir, "README.md")
	write(t, readme, "# lucid\n")
	date := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return release{version: version, date: date, bin: bin, out: filepath.Join(dir, "dist"), docs: []string{readme},
		url: "https://github.com/lucid-dev/lucid/releases/download/" + version}, dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every platform's archive holds one folder of its own name with the two
// binaries (executable) and the docs, every file root's and of the
// commit's time, and SHA256SUMS lists each archive's hash.
func TestArchives(t *testing.T) {
	r, _ := fakeRelease(t, "v1.2.3")
	if err := r.write(); err != nil {
		t.Fatal(err)
	}
	sums := readSums(t, r.out)
	for _, p := range allPlatforms {
		name := archiveName("v1.2.3", p)
		data, err := os.ReadFile(filepath.Join(r.out, name))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); sums[name] != hex.EncodeToString(sum[:]) {
			t.Errorf("SHA256SUMS says %s for %s, whose sha256 is %x", sums[name], name, sum)
		}
		exe := ""
		if p.os == "windows" {
			exe = ".exe"
		}
		top := fmt.Sprintf("lucid_1.2.3_%s_%s/", p.os, p.arch)
		want := []string{top, top + "README.md 644", top + "lucid" + exe + " 755", top + "lucid-view" + exe + " 755"}
		slices.Sort(want) // by bytes, as packed: lucid-view.exe before lucid.exe
		if got := archiveListing(t, name, data, r.date); !slices.Equal(got, want) {
			t.Errorf("%s holds\n%q\nwant\n%q", name, got, want)
		}
	}
	if len(sums) != len(allPlatforms) {
		t.Errorf("SHA256SUMS lists %d archives, want %d", len(sums), len(allPlatforms))
	}
}

// archiveListing is an archive's entries in order, each "name mode" (a
// folder by its name alone), failing on an owner or a time that is not
// root's and date.
func archiveListing(t *testing.T, name string, data []byte, date time.Time) []string {
	t.Helper()
	var got []string
	if strings.HasSuffix(name, ".zip") {
		z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range z.File {
			if !f.Modified.Equal(date) {
				t.Errorf("%s: %s has the time %v, not %v", name, f.Name, f.Modified, date)
			}
			got = append(got, listed(f.Name, f.Mode()))
		}
		return got
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("%s: gzip header keeps the time %v and name %q", name, gz.ModTime, gz.Name)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(date) || h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: %s has the time %v and owner %d:%d", name, h.Name, h.ModTime, h.Uid, h.Gid)
		}
		got = append(got, listed(h.Name, h.FileInfo().Mode()))
	}
	return got
}

func listed(name string, mode os.FileMode) string {
	if mode.IsDir() {
		return name
	}
	return fmt.Sprintf("%s %o", name, mode.Perm())
}

// readSums reads SHA256SUMS as sha256sum -c does: hash, two spaces, name.
func readSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	var names []string
	for line := range strings.Lines(string(data)) {
		sum, name, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("SHA256SUMS line %q is not sha256sum's", line)
		}
		sums[name] = sum
		names = append(names, name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("SHA256SUMS is not sorted by name: %q", names)
	}
	return sums
}

// Packing the same binaries twice gives the same bytes, whatever the
// folders they were packed in.
func TestPackingIsReproducible(t *testing.T) {
	a, _ := fakeRelease(t, "v1.2.3")
	b, _ := fakeRelease(t, "v1.2.3")
	for _, r := range []release{a, b} {
		if err := r.write(); err != nil {
			t.Fatal(err)
		}
	}
	sameFiles(t, a.out, b.out)
}

// sameFiles fails unless the two folders hold the same names with the
// same bytes.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) == 0 || len(ea) != len(eb) {
		t.Fatalf("%s holds %d files, %s %d", a, len(ea), b, len(eb))
	}
	for i := range ea {
		if ea[i].Name() != eb[i].Name() {
			t.Fatalf("%s holds %s where %s holds %s", a, ea[i].Name(), b, eb[i].Name())
		}
		da, _ := os.ReadFile(filepath.Join(a, ea[i].Name()))
		db, _ := os.ReadFile(filepath.Join(b, eb[i].Name()))
		if !bytes.Equal(da, db) {
			t.Errorf("%s differs between two runs on the same inputs", ea[i].Name())
		}
	}
}

// formulaProbe loads a formula under a stand-in for Homebrew's Formula
// class, once for each OS and architecture Homebrew tells apart, and prints
// the url and sha256 that each one sees: the on_ blocks chosen as brew
// would choose them, checked where brew itself cannot be had.
const formulaProbe = `
class Formula
  def self.desc(*) end
  def self.homepage(*) end
  def self.license(*) end
  def self.version(*) end
  def self.test(*) end
  def self.on_macos; yield if $os == "macos"; end
  def self.on_linux; yield if $os == "linux"; end
  def self.on_intel; yield if $arch == "intel"; end
  def self.on_arm; yield if $arch == "arm"; end
  def self.url(u) puts "#{$os}/#{$arch} url #{u}" end
  def self.sha256(s) puts "#{$os}/#{$arch} sha256 #{s}" end
end
%w[macos linux].product(%w[intel arm]).each { |o, a| $os, $arch = o, a; load ARGV[0] }
`

// checkFormula fails unless the formula at path, for each of Homebrew's
// four platforms it was given binaries for, gives the URL of that
// platform's archive and the archive's sha256 in SHA256SUMS, and is Ruby.
func checkFormula(t *testing.T, path, urlBase, version string, platforms []platform, sums map[string]string) {
	t.Helper()
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("no ruby on PATH (apt-get install ruby): the formula's syntax and checksums are unchecked")
	}
	if out, err := exec.Command(ruby, "-c", path).CombinedOutput(); err != nil {
		t.Fatalf("ruby -c %s: %v\n%s", path, err, out)
	}
	out, err := exec.Command(ruby, "-e", formulaProbe, path).CombinedOutput()
	if err != nil {
		t.Fatalf("loading %s: %v\n%s", path, err, out)
	}
	var want []string
	for _, o := range []string{"darwin", "linux"} {
		for _, a := range []string{"amd64", "arm64"} {
			if !slices.Contains(platforms, platform{o, a}) {
				continue
			}
			name := archiveName(version, platform{o, a})
			key := homebrewOS[o] + "/" + homebrewArch[a]
			want = append(want, key+" url "+urlBase+"/"+name, key+" sha256 "+sums[name])
		}
	}
	if got := strings.Split(strings.TrimSpace(string(out)), "\n"); !slices.Equal(got, want) {
		t.Errorf("the formula gives, per platform:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The formula names each of the four macOS and Linux archives with its
// sha256, and installs both binaries.
func TestFormula(t *testing.T) {
	r, _ := fakeRelease(t, "v1.2.3")
	if err := r.write(); err != nil {
		t.Fatal(err)
	}
	formula, err := os.ReadFile(filepath.Join(r.out, "lucid.rb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`version "1.2.3"`, `bin.install "lucid", "lucid-view"`, `shell_output("#{bin}/lucid version")`} {
		if !strings.Contains(string(formula), want) {
			t.Errorf("the formula lacks %s:\n%s", want, formula)
		}
	}
	checkFormula(t, filepath.Join(r.out, "lucid.rb"), r.url, r.version, allPlatforms, readSums(t, r.out))
}
