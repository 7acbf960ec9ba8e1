package remoteclaims

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// Objects are hashed here but stored by git: the blobs, tree and commit of
// a claim go to one git unpack-objects as a pack built in memory, so that
// git writes them with the repository's own settings (core.sharedRepository,
// the objects folder git is told to use) where a writer of loose objects
// would have to repeat them. One process, where hash-object, mktree and
// commit-tree would be three. They are read back with one git cat-file
// --batch, because a fetch may bring them in a pack.

// objectFormat is the repository's hash: "sha1", or "sha256" where
// extensions.objectFormat says so.
func objectFormat(r *gitstore.Repo) (string, error) {
	v, _ := gitstore.ConfigValue(filepath.Join(r.CommonDir, "config"), "extensions", "objectformat")
	switch f := strings.ToLower(v); f {
	case "", "sha1":
		return "sha1", nil
	case "sha256":
		return f, nil
	default:
		return "", fmt.Errorf("the repository's object format %q is unknown to lucid", v)
	}
}

// objectWriter gathers objects into a pack that flush hands to git.
type objectWriter struct {
	top     string // where git runs
	newHash func() hash.Hash
	pack    bytes.Buffer // the objects, without the pack's header
	count   uint32
	z       *zlib.Writer // reused: a new one allocates its window and tables each time
}

func newObjectWriter(r *gitstore.Repo) (*objectWriter, error) {
	f, err := objectFormat(r)
	if err != nil {
		return nil, err
	}
	w := &objectWriter{top: r.Top, newHash: sha1.New}
	if f == "sha256" {
		w.newHash = sha256.New
	}
	return w, nil
}

// packType is the type number of kind in a pack's object header.
func packType(kind string) byte {
	switch kind {
	case "commit":
		return 1
	case "tree":
		return 2
	}
	return 3 // blob
}

// write adds an object of kind (blob, tree, commit) to the pack and
// returns its id in hex. Nothing is stored before flush.
func (w *objectWriter) write(kind string, data []byte) (string, error) {
	h := w.newHash()
	io.WriteString(h, kind+" "+strconv.Itoa(len(data))+"\x00")
	h.Write(data)
	// The header: the type in bits 4-6 of the first byte, the size in
	// 4 bits there and 7 in each byte after, low bits first.
	size := uint64(len(data))
	c := packType(kind)<<4 | byte(size&0x0f)
	size >>= 4
	for size > 0 {
		w.pack.WriteByte(c | 0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	w.pack.WriteByte(c)
	// Stored, not compressed: git inflates the pack and writes each
	// object with its own compression, so compressing here is time
	// spent twice, and a compressing writer allocates about a megabyte
	// of tables (a claim with a thousand others beside it took twice as
	// long for it).
	if w.z == nil {
		w.z, _ = zlib.NewWriterLevel(&w.pack, zlib.NoCompression)
	} else {
		w.z.Reset(&w.pack)
	}
	if _, err := w.z.Write(data); err != nil {
		return "", err
	}
	if err := w.z.Close(); err != nil {
		return "", err
	}
	w.count++
	return hex.EncodeToString(h.Sum(nil)), nil
}

// flush stores the objects written so far, through git unpack-objects,
// which keeps those the repository holds already.
func (w *objectWriter) flush() error {
	var pack bytes.Buffer
	pack.WriteString("PACK\x00\x00\x00\x02")
	pack.Write(binary.BigEndian.AppendUint32(nil, w.count))
	pack.Write(w.pack.Bytes())
	h := w.newHash()
	h.Write(pack.Bytes())
	pack.Write(h.Sum(nil))
	if _, err := gitstore.RunGit(context.Background(), w.top, pack.Bytes(), "unpack-objects", "-q"); err != nil {
		return err
	}
	w.pack.Reset()
	w.count = 0
	return nil
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

func openObjects(r *gitstore.Repo) (*objectReader, error) {
	cmd := gitstore.GitCommand(context.Background(), r.Top, "cat-file", "--batch")
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
