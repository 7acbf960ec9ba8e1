package shell

import (
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds on reading an archive, past which lucid gives up on its members
// and takes the extraction to write anything under its folder.
const (
	maxArchiveBytes    = 16 << 20 // of the archive file read
	maxArchiveUnpacked = 32 << 20 // of a tar decompressed: bzip2 takes about 0.2 s for it
	maxArchiveMembers  = 4096
)

// archiveMembers lists the paths of the files in the archive b, as
// stored (folders left out): a tar, plain or compressed with gzip or
// bzip2 (recognised by their first bytes, as GNU tar does), or a zip. ok
// is false for anything else (xz, zstd...), a damaged archive, or one
// past the bounds.
func archiveMembers(b []byte) (names []string, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte("PK\x03\x04")) || bytes.HasPrefix(b, []byte("PK\x05\x06")):
		return zipMembers(b)
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return tarMembers(&gunzip{r: bytes.NewReader(b)})
	case bytes.HasPrefix(b, []byte("BZh")):
		return tarMembers(bzip2.NewReader(bytes.NewReader(b)))
	}
	return tarMembers(bytes.NewReader(b))
}

// errTooLarge stops a read past maxArchiveUnpacked.
var errTooLarge = errors.New("archive too large")

// capped reads at most n bytes of r, then fails.
type capped struct {
	r io.Reader
	n int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, errTooLarge
	}
	p = p[:min(int64(len(p)), c.n)]
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// tarMembers lists the members of a tar stream, folders left out. It
// reads the headers itself (v7, ustar with its prefix, GNU's long names,
// pax's path): archive/tar's init makes os/user reachable, which links
// libc into a cgo build of every lucid process.
func tarMembers(r io.Reader) ([]string, bool) {
	if _, seeks := r.(io.Seeker); !seeks {
		r = &capped{r: r, n: maxArchiveUnpacked}
	}
	var names []string
	var block [512]byte
	long := "" // the name a GNU L or pax x header gives the next member
	for {
		if _, err := io.ReadFull(r, block[:]); err != nil {
			return names, err == io.EOF // an archive may end without its two zero blocks
		}
		if block == [512]byte{} {
			return names, true
		}
		if !tarChecksum(block[:]) {
			return nil, false
		}
		size, ok := tarNumber(block[124:136])
		if !ok || size < 0 {
			return nil, false
		}
		data := (size + 511) &^ 511
		name := tarString(block[0:100])
		if string(block[257:262]) == "ustar" {
			if prefix := tarString(block[345:500]); prefix != "" && block[156] != 'L' {
				name = prefix + "/" + name
			}
		}
		switch flag := block[156]; flag {
		case 'L', 'x':
			if size > 1<<20 {
				return nil, false
			}
			b := make([]byte, data)
			if _, err := io.ReadFull(r, b); err != nil {
				return nil, false
			}
			if flag == 'L' {
				long = tarString(b[:size])
			} else if p, ok := paxPath(b[:size]); ok {
				long = p
			}
			continue
		case 'g', 'K', 'V', 'M', 'N':
			// pax globals, GNU long link names, volume labels, multi-volume
			// and old long-name headers: no member of their own.
		default:
			if long != "" {
				name, long = long, ""
			}
			if flag != '5' && !strings.HasSuffix(name, "/") {
				if len(names) >= maxArchiveMembers {
					return nil, false
				}
				names = append(names, name)
			}
		}
		if block[156] == '1' || block[156] == '2' || block[156] == '3' || block[156] == '4' || block[156] == '5' || block[156] == '6' {
			data = 0 // links, devices, folders and FIFOs have no data, whatever their size says
		}
		if err := tarSkip(r, data); err != nil {
			return nil, false
		}
	}
}

// tarSkip reads past n bytes of data.
func tarSkip(r io.Reader, n int64) error {
	if s, ok := r.(io.Seeker); ok {
		_, err := s.Seek(n, io.SeekCurrent)
		return err
	}
	_, err := io.CopyN(io.Discard, r, n)
	return err
}

// tarChecksum reports whether a header's checksum is its bytes' sum, the
// checksum field counted as blanks (signed sums too, as old tars made).
func tarChecksum(b []byte) bool {
	want, ok := tarNumber(b[148:156])
	if !ok {
		return false
	}
	var unsigned, signed int64
	for i, c := range b {
		if i >= 148 && i < 156 {
			c = ' '
		}
		unsigned += int64(c)
		signed += int64(int8(c))
	}
	return want == unsigned || want == signed
}

// tarNumber reads a numeric field: octal, blanks and NULs around it, or
// GNU's base-256 (the high bit of the first byte set).
func tarNumber(b []byte) (int64, bool) {
	if len(b) > 0 && b[0]&0x80 != 0 {
		var n int64
		for i, c := range b {
			if i == 0 {
				c &= 0x7f
			}
			if n > (1<<62)>>8 {
				return 0, false
			}
			n = n<<8 | int64(c)
		}
		return n, true
	}
	s := strings.Trim(string(b), " \x00")
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 8, 64)
	return n, err == nil
}

// tarString is a NUL-terminated field's text.
func tarString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// paxPath is the path record of a pax header's records ("LEN path=...\n").
func paxPath(b []byte) (string, bool) {
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return "", false
		}
		n, err := strconv.Atoi(string(b[:sp]))
		if err != nil || n <= sp || n > len(b) {
			return "", false
		}
		rec := strings.TrimSuffix(string(b[sp+1:n]), "\n")
		if v, ok := strings.CutPrefix(rec, "path="); ok {
			return v, true
		}
		b = b[n:]
	}
	return "", false
}

// gunzip decompresses gzip members one after another (gzip -c a b
// concatenates them) with compress/flate alone: compress/gzip's checksum
// would link hash/crc32, whose tables are built when every lucid process
// starts. A damaged stream fails; its checksums are not checked.
type gunzip struct {
	r    *bytes.Reader
	body io.Reader
}

func (g *gunzip) Read(p []byte) (int, error) {
	for {
		if g.body == nil {
			if g.r.Len() == 0 {
				return 0, io.EOF
			}
			if err := skipGzipHeader(g.r); err != nil {
				return 0, err
			}
			g.body = flate.NewReader(g.r) // reads byte by byte from a bytes.Reader: none past its end
		}
		n, err := g.body.Read(p)
		if err == io.EOF {
			g.body = nil
			if _, err := g.r.Seek(8, io.SeekCurrent); err != nil { // CRC-32 and size
				return n, err
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// skipGzipHeader reads past a gzip member's header (RFC 1952).
func skipGzipHeader(r *bytes.Reader) error {
	var h [10]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return err
	}
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 {
		return errors.New("not gzip")
	}
	flags := h[3]
	if flags&4 != 0 { // FEXTRA
		var n [2]byte
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return err
		}
		if _, err := r.Seek(int64(binary.LittleEndian.Uint16(n[:])), io.SeekCurrent); err != nil {
			return err
		}
	}
	for _, bit := range []byte{8, 16} { // FNAME, FCOMMENT: zero-terminated
		if flags&bit == 0 {
			continue
		}
		for {
			c, err := r.ReadByte()
			if err != nil {
				return err
			}
			if c == 0 {
				break
			}
		}
	}
	if flags&2 != 0 { // FHCRC
		_, err := r.Seek(2, io.SeekCurrent)
		return err
	}
	return nil
}

// zipMembers lists the files of a zip from its central directory (the
// names end in / for folders, which are left out), read here rather than
// with archive/zip, whose package registers its decompressors when every
// lucid process starts. Names not flagged UTF-8 are CP437: any such byte
// past ASCII makes the list not known.
func zipMembers(b []byte) ([]string, bool) {
	// The end of central directory record: 22 bytes and a comment of up
	// to 65535, at the very end.
	eocd := -1
	for i := len(b) - 22; i >= 0 && i >= len(b)-22-65535; i-- {
		if string(b[i:i+4]) == "PK\x05\x06" {
			eocd = i
			break
		}
	}
	if eocd < 0 {
		return nil, false
	}
	count := uint64(binary.LittleEndian.Uint16(b[eocd+10:]))
	offset := uint64(binary.LittleEndian.Uint32(b[eocd+16:]))
	if count == 0xffff || offset == 0xffffffff {
		// Zip64: a locator 20 bytes before points at the zip64 record.
		loc := eocd - 20
		if loc < 0 || string(b[loc:loc+4]) != "PK\x06\x07" {
			return nil, false
		}
		rec := binary.LittleEndian.Uint64(b[loc+8:])
		if len(b) < 56 || rec > uint64(len(b)-56) || string(b[rec:rec+4]) != "PK\x06\x06" {
			return nil, false
		}
		count = binary.LittleEndian.Uint64(b[rec+32:])
		offset = binary.LittleEndian.Uint64(b[rec+48:])
	}
	if count > maxArchiveMembers {
		return nil, false
	}
	var names []string
	p := offset
	for range count {
		if p > uint64(len(b)) || uint64(len(b))-p < 46 || string(b[p:p+4]) != "PK\x01\x02" {
			return nil, false
		}
		flags := binary.LittleEndian.Uint16(b[p+8:])
		nameLen := uint64(binary.LittleEndian.Uint16(b[p+28:]))
		extraLen := uint64(binary.LittleEndian.Uint16(b[p+30:]))
		commentLen := uint64(binary.LittleEndian.Uint16(b[p+32:]))
		end := p + 46 + nameLen
		if end > uint64(len(b)) {
			return nil, false
		}
		name := string(b[p+46 : end])
		switch {
		case flags&0x800 == 0 && !isASCII(name), !utf8.ValidString(name):
			return nil, false
		case !strings.HasSuffix(name, "/"):
			names = append(names, name)
		}
		p = end + extraLen + commentLen
	}
	return names, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
