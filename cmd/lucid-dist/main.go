// Command lucid-dist packs the binaries that scripts/dist built into the
// release: an archive per platform, SHA256SUMS and the Homebrew formula.
// It is Go rather than tar and zip so that the bytes are the same on any
// machine: GNU tar, bsdtar and zip differ in what they record and how they
// order it, and not every machine has zip.
//
// Usage (scripts/dist runs it):
//
//	lucid-dist -version v1.2.3 -date 2026-01-02T03:04:05Z -bin BUILD -out dist [-docs README.md,LICENSE] [-url URL]
//
// BUILD holds a folder per platform, OS_ARCH, with lucid and lucid-view in
// it (lucid.exe and lucid-view.exe for windows).
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"time"
)

// binaries are what every archive carries, by their name on unix.
var binaries = []string{"lucid", "lucid-view"}

func main() {
	version := flag.String("version", "", "the release's version, vX.Y.Z (or what git describe says of a commit between tags)")
	date := flag.String("date", "", "every file's time in the archives, RFC 3339: the commit's, so that a rebuild is the same bytes")
	bin := flag.String("bin", "", "the folder holding a folder of binaries per platform, OS_ARCH")
	out := flag.String("out", "dist", "the folder the release is written to")
	docs := flag.String("docs", "", "files every archive carries beside the binaries, comma separated")
	url := flag.String("url", "", "the folder URL the release's files are downloaded from, for the formula (default the GitHub release of -version)")
	flag.Parse()
	when, err := time.Parse(time.RFC3339, *date)
	if err != nil || *version == "" || *bin == "" {
		fmt.Fprintln(os.Stderr, "usage: lucid-dist -version vX.Y.Z -date RFC3339 -bin DIR [-out DIR] [-docs FILES] [-url URL]")
		os.Exit(2)
	}
	r := release{version: *version, date: when.UTC(), bin: *bin, out: *out, url: *url}
	if *docs != "" {
		r.docs = strings.Split(*docs, ",")
	}
	if r.url == "" {
		r.url = "https://github.com/lucid-dev/lucid/releases/download/" + r.version
	}
	if err := r.write(); err != nil {
		fmt.Fprintln(os.Stderr, "lucid-dist:", err)
		os.Exit(1)
	}
}

// release is one release's inputs and where it goes.
type release struct {
	version string
	date    time.Time
	bin     string
	out     string
	docs    []string
	url     string
}

// platform is one OS and architecture, by Go's names, which the archives'
// names use too: install.sh maps uname's to them.
type platform struct{ os, arch string }

// archiveName is the stable name of a platform's archive:
// lucid_<version without its v>_<os>_<arch>.tar.gz, or .zip for windows.
func archiveName(version string, p platform) string {
	ext := ".tar.gz"
	if p.os == "windows" {
		ext = ".zip"
	}
	return folderName(version, p) + ext
}

// folderName is the one folder at the top of an archive, so that unpacking
// one never scatters files into the current folder (and Homebrew, which
// steps into a lone top folder, finds the binaries).
func folderName(version string, p platform) string {
	return fmt.Sprintf("lucid_%s_%s_%s", strings.TrimPrefix(version, "v"), p.os, p.arch)
}

func (r release) write() error {
	platforms, err := r.platforms()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return err
	}
	sums := map[string]string{}
	for _, p := range platforms {
		name := archiveName(r.version, p)
		data, err := r.archive(p)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(r.out, name), data, 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
	}
	// sha256sum's own format, so that sha256sum -c and shasum -a 256 -c
	// read it: the hash, two spaces, the name, sorted by name.
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	if err := os.WriteFile(filepath.Join(r.out, "SHA256SUMS"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	formula, err := r.formula(platforms, sums)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.out, "lucid.rb"), formula, 0o644)
}

// platforms are the folders of r.bin, sorted, each named OS_ARCH.
func (r release) platforms() ([]platform, error) {
	entries, err := os.ReadDir(r.bin)
	if err != nil {
		return nil, err
	}
	var ps []platform
	for _, e := range entries {
		osName, arch, ok := strings.Cut(e.Name(), "_")
		if !e.IsDir() || !ok {
			continue
		}
		ps = append(ps, platform{osName, arch})
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no OS_ARCH folder of binaries in %s", r.bin)
	}
	return ps, nil
}

// entry is a file of an archive.
type entry struct {
	name string // under the archive's top folder
	mode os.FileMode
	data []byte
}

// entries are a platform's files: its binaries, then the docs, sorted by
// name so that the order never depends on a directory listing.
func (r release) entries(p platform) ([]entry, error) {
	var es []entry
	for _, b := range binaries {
		if p.os == "windows" {
			b += ".exe"
		}
		data, err := os.ReadFile(filepath.Join(r.bin, p.os+"_"+p.arch, b))
		if err != nil {
			return nil, err
		}
		es = append(es, entry{b, 0o755, data})
	}
	for _, d := range r.docs {
		data, err := os.ReadFile(d)
		if err != nil {
			return nil, err
		}
		es = append(es, entry{filepath.Base(d), 0o644, data})
	}
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return es, nil
}

// archive is a platform's archive: a zip for windows, whose own tools
// unpack it, a gzipped tar elsewhere. Every time is r.date and every owner
// root (0), so that nothing of the machine that packed it is in it.
func (r release) archive(p platform) ([]byte, error) {
	es, err := r.entries(p)
	if err != nil {
		return nil, err
	}
	top := folderName(r.version, p) + "/"
	var buf bytes.Buffer
	if p.os == "windows" {
		z := zip.NewWriter(&buf)
		dir := &zip.FileHeader{Name: top, Modified: r.date}
		dir.SetMode(os.ModeDir | 0o755)
		if _, err := z.CreateHeader(dir); err != nil {
			return nil, err
		}
		for _, e := range es {
			h := &zip.FileHeader{Name: top + e.name, Method: zip.Deflate, Modified: r.date}
			h.SetMode(e.mode)
			w, err := z.CreateHeader(h)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(e.data); err != nil {
				return nil, err
			}
		}
		err := z.Close()
		return buf.Bytes(), err
	}
	// gzip's header keeps no name and no time when none is given, and the
	// compression is Go's own, the same on every machine.
	gz, err := gzip.NewWriterLevel(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	hdr := func(name string, typ byte, mode os.FileMode, size int) *tar.Header {
		return &tar.Header{Typeflag: typ, Name: name, Mode: int64(mode), Size: int64(size),
			ModTime: r.date, Uname: "root", Gname: "root", Format: tar.FormatUSTAR}
	}
	if err := tw.WriteHeader(hdr(top, tar.TypeDir, 0o755, 0)); err != nil {
		return nil, err
	}
	for _, e := range es {
		if err := tw.WriteHeader(hdr(top+e.name, tar.TypeReg, e.mode, len(e.data))); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	err = gz.Close()
	return buf.Bytes(), err
}

// formulaTemplate is the formula for the tap lucid-dev/homebrew-tap (brew
// install lucid-dev/tap/lucid): the archive of the machine's OS and
// architecture, its two binaries put in Homebrew's bin.
var formulaTemplate = template.Must(template.New("lucid.rb").Parse(`# Written by make dist (cmd/lucid-dist) for lucid {{.Version}}: copy it to
# Formula/lucid.rb in github.com/lucid-dev/homebrew-tap.
class Lucid < Formula
  desc "Shared plan, log and file claims for AI coding agents in one git repository"
  homepage "https://github.com/lucid-dev/lucid"
  version "{{.Bare}}"
{{- range .OS}}

  on_{{.Name}} do
{{- range .Arch}}
    on_{{.Name}} do
      url "{{.URL}}"
      sha256 "{{.Sum}}"
    end
{{- end}}
  end
{{- end}}

  def install
    bin.install "lucid", "lucid-view"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/lucid version")
  end
end
`))

// homebrewOS and homebrewArch are Homebrew's on_ blocks for Go's names;
// windows has none.
var (
	homebrewOS   = map[string]string{"darwin": "macos", "linux": "linux"}
	homebrewArch = map[string]string{"amd64": "intel", "arm64": "arm"}
)

func (r release) formula(platforms []platform, sums map[string]string) ([]byte, error) {
	type arch struct{ Name, URL, Sum string }
	type osBlock struct {
		Name string
		Arch []arch
	}
	data := struct {
		Version, Bare string
		OS            []osBlock
	}{Version: r.version, Bare: strings.TrimPrefix(r.version, "v")}
	for _, goos := range []string{"darwin", "linux"} {
		b := osBlock{Name: homebrewOS[goos]}
		for _, goarch := range []string{"amd64", "arm64"} {
			p := platform{goos, goarch}
			if !slices.Contains(platforms, p) {
				continue
			}
			name := archiveName(r.version, p)
			b.Arch = append(b.Arch, arch{homebrewArch[goarch], strings.TrimSuffix(r.url, "/") + "/" + name, sums[name]})
		}
		if len(b.Arch) > 0 {
			data.OS = append(data.OS, b)
		}
	}
	var buf bytes.Buffer
	if err := formulaTemplate.Execute(&buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
