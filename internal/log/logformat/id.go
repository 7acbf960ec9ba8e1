package logformat

import (
	"encoding/binary"
	"math/rand/v2"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet, in which ids are written.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// IDLen is the length of an entry id.
const IDLen = 26

var idState struct {
	sync.Mutex
	ms   uint64
	rand [10]byte
}

// NewID returns a new entry id for time t: 48 bits of Unix milliseconds and
// 80 random bits, in 26 characters of Crockford base32, so that ids sort by
// time as strings and are unique across machines. Within one process, ids of
// the same millisecond increment the random part, so they sort in the order
// they were made.
func NewID(t time.Time) string {
	ms := uint64(t.UnixMilli())
	idState.Lock()
	if ms <= idState.ms {
		ms = idState.ms
		increment(&idState.rand)
	} else {
		idState.ms = ms
		randomBytes(idState.rand[:])
	}
	var b [16]byte
	binary.BigEndian.PutUint16(b[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(b[2:6], uint32(ms))
	copy(b[6:], idState.rand[:])
	idState.Unlock()
	return encodeBase32(b)
}

func increment(r *[10]byte) {
	for i := len(r) - 1; i >= 0; i-- {
		r[i]++
		if r[i] != 0 {
			return
		}
	}
}

// encodeBase32 writes 128 bits as 26 characters, five bits each, the first
// character holding the top three bits.
func encodeBase32(b [16]byte) string {
	hi := binary.BigEndian.Uint64(b[0:8])
	lo := binary.BigEndian.Uint64(b[8:16])
	var out [IDLen]byte
	for i := IDLen - 1; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// ValidID reports whether s has the form of an entry id: 26 digits and
// upper-case letters, the first at most 7. Reading is lenient about the
// letters Crockford leaves out (I, L, O, U), which hand-written ids and
// examples in documentation carry; NewID never writes them.
func ValidID(s string) bool {
	if len(s) != IDLen || s[0] < '0' || s[0] > '7' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// decodeCrockford returns the value of one character of a valid id,
// reading I and L as 1 and O as 0, as Crockford's decoding does.
func decodeCrockford(c byte) int {
	switch c {
	case 'I', 'L':
		return 1
	case 'O':
		return 0
	case 'U':
		return 27 // not Crockford; read as V's neighbour so times stay ordered
	}
	if c <= '9' {
		return int(c - '0')
	}
	for i := 10; i < len(crockford); i++ {
		if crockford[i] >= c {
			return i
		}
	}
	return 31
}

// IDTime returns the time encoded in a valid id.
func IDTime(id string) time.Time {
	var ms uint64
	for i := 0; i < 10; i++ {
		ms = ms<<5 | uint64(decodeCrockford(id[i]))
	}
	return time.UnixMilli(int64(ms))
}

// randomBytes fills b from math/rand/v2, whose generator is ChaCha8 seeded
// from the operating system's randomness when the process starts. Ids must
// be unique, not secret: crypto/rand's first read in a process (a
// getrandom call and the set-up of its DRBG) was a tenth of what `lucid
// claim` costs, and its packages' initialisation ran in every hook.
func randomBytes(b []byte) {
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rand.Uint64())
		copy(b[i:], w[:])
	}
}
