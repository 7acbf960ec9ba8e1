package shellword

import (
	"os/exec"
	"testing"
)

// What the shell reads back from each quoted word is the word.
func TestQuote(t *testing.T) {
	words := []string{"", "src/**", "a b", "it's", "HEAD~2", "~user", "$HOME", "x;rm -rf /", "tester·a3f9c1", "a\nb", `"q"`}
	for _, w := range words {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(w)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != w {
			t.Errorf("%q quoted as %s reads back %q", w, Quote(w), out)
		}
	}
	if got := Join([]string{"lucid", "release", "src/**", "--to", "a1"}); got != "lucid release 'src/**' --to a1" {
		t.Errorf("Join: %s", got)
	}
}
