package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Objects are written here as loose objects, the way git writes them
// (zlib of "TYPE SIZE\0DATA", named by its hash, through a temporary file
// and a rename), rather than by git hash-object, mktree and commit-tree: a
// claim writes three objects, and the three git processes would add about
// 3.9 ms (1.3 ms each, median of 41 runs beside a hello-world Go binary's
// 1.0 ms) to a push that takes about 14.5 ms to a bare repository on disk.
// They are read back with one git cat-file --batch, because a
// fetch may bring them in a pack.

// objectFormat is the repository's hash: "sha1", or "sha256" where
// extensions.objectFormat says so.
func (r *Repo) objectFormat() (string, error) {
	v, _ := configValue(filepath.Join(r.CommonDir, "config"), "extensions", "objectformat")
	switch f := strings.ToLower(v); f {
	case "", "sha1":
		return "sha1", nil
	case "sha256":
		return f, nil
	default:
		return "", fmt.Errorf("the repository's object format %q is unknown to lucid", v)
	}
}

// objectWriter writes loose objects into the repository.
type objectWriter struct {
	dir     string // the objects folder
	newHash func() hash.Hash
}

func (r *Repo) newObjectWriter() (*objectWriter, error) {
	f, err := r.objectFormat()
	if err != nil {
		return nil, err
	}
	w := &objectWriter{dir: filepath.Join(r.CommonDir, "objects"), newHash: sha1.New}
	if f == "sha256" {
		w.newHash = sha256.New
	}
	return w, nil
}

// write stores an object of kind (blob, tree, commit) and returns its id in
// hex. An object that exists already is left as it is.
func (w *objectWriter) write(kind string, data []byte) (string, error) {
	header := kind + " " + strconv.Itoa(len(data)) + "\x00"
	h := w.newHash()
	io.WriteString(h, header)
	h.Write(data)
	oid := hex.EncodeToString(h.Sum(nil))
	dir := filepath.Join(w.dir, oid[:2])
	path := filepath.Join(dir, oid[2:])
	if _, err := os.Stat(path); err == nil {
		return oid, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	packed, err := zlibObject(append([]byte(header), data...))
	if err != nil {
		return "", err
	}
	tmp, err := writeTemp(dir, packed, 0o444)
	if err != nil {
		return "", err
	}
	// Two writers of one object write the same bytes: either rename wins.
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return oid, nil
}

// zlibObject is the zlib stream of a loose object, as git writes it.
// compress/flate's initialisation is about 0.01 ms (GODEBUG=inittrace=1,
// median of 41 starts), which every hook pays whether it writes objects or
// not: too little to write a deflate stream by hand.
func zlibObject(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// treeEntry is a file of a tree: a blob.
type treeEntry struct {
	name string
	oid  string // hex
}

// tree encodes the tree of blobs entries (sorted by name, no folders).
func encodeTree(entries []treeEntry) ([]byte, error) {
	var b bytes.Buffer
	for _, e := range entries {
		raw, err := hex.DecodeString(e.oid)
		if err != nil {
			return nil, err
		}
		b.WriteString("100644 " + e.name + "\x00")
		b.Write(raw)
	}
	return b.Bytes(), nil
}

// decodeTree splits a tree into its entries; anything but a plain file is
// an error that names it.
func decodeTree(data []byte, hashLen int) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+hashLen {
			return nil, errors.New("its tree does not decode")
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		oid := hex.EncodeToString(data[nul+1 : nul+1+hashLen])
		data = data[nul+1+hashLen:]
		if mode != "100644" && mode != "100755" {
			return nil, fmt.Errorf("its tree holds %s, which is not a claim file", name)
		}
		out = append(out, treeEntry{name: name, oid: oid})
	}
	return out, nil
}

// commitTree reads the tree line of a commit.
func commitTree(data []byte) (string, bool) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	oid, ok := bytes.CutPrefix(line, []byte("tree "))
	return string(oid), ok
}

// objectReader reads objects through one git cat-file --batch.
type objectReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (r *Repo) openObjects() (*objectReader, error) {
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = r.Top
	cmd.Env = gitEnv()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &objectReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

func (o *objectReader) close() {
	o.in.Close()
	io.Copy(io.Discard, o.out)
	o.cmd.Wait()
}

// object is what cat-file said of one name.
type object struct {
	oid, kind string // kind "" when the object is missing
	data      []byte
}

// read asks for the objects names, and returns them in order. The names
// are written while the answers are read, so that neither pipe fills.
func (o *objectReader) read(names ...string) ([]object, error) {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\n") {
			return nil, fmt.Errorf("bad object name %q", n)
		}
	}
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(o.in)
		for _, n := range names {
			w.WriteString(n + "\n")
		}
		werr <- w.Flush()
	}()
	out := make([]object, 0, len(names))
	for range names {
		head, err := o.out.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) == 2 && f[1] == "missing" || len(f) >= 2 && f[1] == "ambiguous" {
			out = append(out, object{})
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file said %q", strings.TrimSpace(head))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file said %q", strings.TrimSpace(head))
		}
		data := make([]byte, size+1) // the object and a newline
		if _, err := io.ReadFull(o.out, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		out = append(out, object{oid: f[0], kind: f[1], data: data[:size]})
	}
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return out, nil
}
