package claims

import (
	"strings"
	"testing"
)

func TestIsGlobSpecial(t *testing.T) {
	for c := 0; c < 256; c++ {
		if got, want := isGlobSpecial(byte(c)), strings.IndexByte(globSpecial, byte(c)) >= 0; got != want {
			t.Errorf("isGlobSpecial(%q) = %v, globSpecial says %v", byte(c), got, want)
		}
	}
}
