package merge

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"unsafe"
)

// bufSize is the size of a read buffer: lines longer than it are
// gathered whole.
const bufSize = 1 << 20

// lineReader reads a file line by line through one buffer, which every
// pass reuses.
type lineReader struct {
	r    *bufio.Reader
	long []byte // a line longer than the buffer, gathered
}

func (lr *lineReader) reset(r io.Reader) {
	if lr.r == nil {
		lr.r = bufio.NewReaderSize(r, bufSize)
	} else {
		lr.r.Reset(r)
	}
}

// each calls fn with each line that r holds from where it stands, without
// its "\n", and its number from 0; the last line too when it has no
// newline, and then it reports torn. The line is fn's only until it
// returns.
func (lr *lineReader) each(r io.Reader, fn func(line []byte, n int)) (torn bool, err error) {
	lr.reset(r)
	for n := 0; ; n++ {
		line, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			lr.long = append(lr.long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = lr.r.ReadSlice('\n')
				lr.long = append(lr.long, line...)
			}
			line = lr.long
		}
		if err == io.EOF {
			if len(line) > 0 {
				fn(line, n)
				return true, nil
			}
			return false, nil
		}
		if err != nil {
			return false, err
		}
		fn(line[:len(line)-1], n)
	}
}

// count returns the number of lines f holds from where it stands (at
// least 1), and rewinds it there.
func (lr *lineReader) count(f *os.File) (int, error) {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	lr.reset(f)
	n := 1 // a last line without a newline
	for {
		chunk, err := lr.r.Peek(bufSize)
		n += bytes.Count(chunk, []byte{'\n'})
		if _, derr := lr.r.Discard(len(chunk)); derr != nil {
			return 0, derr
		}
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return 0, err
		}
	}
	_, err = f.Seek(start, io.SeekStart)
	return n, err
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// asString views b as a string without copying it, for a look that keeps
// nothing of it.
func asString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// commonPrefix returns the length of the longest run of whole lines that
// both files begin with, reading them from their starts.
func commonPrefix(a, b *os.File) (int64, error) {
	const chunk = 64 << 10
	bufA, bufB := make([]byte, chunk), make([]byte, chunk)
	var off, lastNL int64 // lastNL: the offset after the last newline that both share
	for {
		na, errA := a.ReadAt(bufA, off)
		nb, errB := b.ReadAt(bufB, off)
		if errA != nil && errA != io.EOF {
			return 0, errA
		}
		if errB != nil && errB != io.EOF {
			return 0, errB
		}
		n := min(na, nb)
		same := n
		if !bytes.Equal(bufA[:n], bufB[:n]) {
			for i := 0; i < n; i++ {
				if bufA[i] != bufB[i] {
					same = i
					break
				}
			}
		}
		if i := bytes.LastIndexByte(bufA[:same], '\n'); i >= 0 {
			lastNL = off + int64(i) + 1
		}
		switch {
		case same < n || na != nb:
			return lastNL, nil
		case na < chunk: // both ended, alike
			return off + int64(na), nil
		}
		off += chunk
	}
}
