package gitstore

import (
	"testing"
	"time"
)

func TestEnvKnobs(t *testing.T) {
	for _, c := range []struct {
		val  string
		want int
	}{{"", 7}, {"12", 12}, {" 12\n", 12}, {"0", 7}, {"-3", 7}, {"1.5", 7}, {"ten", 7}} {
		t.Setenv("LUCID_TEST_KNOB", c.val)
		if got := EnvInt("LUCID_TEST_KNOB", 7); got != c.want {
			t.Errorf("EnvInt(%q) = %d, want %d", c.val, got, c.want)
		}
		want := time.Duration(c.want) * time.Second
		if got := EnvSeconds("LUCID_TEST_KNOB", 7*time.Second); got != want {
			t.Errorf("EnvSeconds(%q) = %v, want %v", c.val, got, want)
		}
	}
}
