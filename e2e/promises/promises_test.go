package promises

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

// A case tries one promise in one situation and returns the defect it
// found, or "".
type promise struct {
	class, name string
	try         func(w *world) string
}

// cases is the suite, class by class (cases_*_test.go).
var cases []promise

func add(class string, list ...promise) {
	for _, p := range list {
		p.class = class
		cases = append(cases, p)
	}
}

// TestPromises runs every case in a world of its own and prints, per
// class, the cases tried and the defects left.
func TestPromises(t *testing.T) {
	type tally struct{ tried, defects int }
	var mu sync.Mutex
	tallies := map[string]*tally{}
	for _, c := range cases {
		t.Run(c.class+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			defect := c.try(newWorld(t))
			mu.Lock()
			tl := tallies[c.class]
			if tl == nil {
				tl = &tally{}
				tallies[c.class] = tl
			}
			tl.tried++
			if defect != "" {
				tl.defects++
			}
			mu.Unlock()
			if defect != "" {
				t.Error(defect)
			}
		})
	}
	t.Cleanup(func() {
		var classes []string
		for c := range tallies {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		var b strings.Builder
		fmt.Fprintf(&b, "lucid promises: %-22s %6s %8s\n", "class", "tried", "defects")
		total := tally{}
		for _, c := range classes {
			fmt.Fprintf(&b, "lucid promises: %-22s %6d %8d\n", c, tallies[c].tried, tallies[c].defects)
			total.tried += tallies[c].tried
			total.defects += tallies[c].defects
		}
		fmt.Fprintf(&b, "lucid promises: %-22s %6d %8d\n", "all", total.tried, total.defects)
		os.Stdout.WriteString(b.String())
	})
}

// denied is the defect of a write that should have been denied.
func denied(a answer, what string) string {
	if a.deny {
		return ""
	}
	return what + " was allowed: " + strings.TrimSpace(a.raw)
}

// allowed is the defect of a write that should have passed.
func allowed(a answer, what string) string {
	if !a.deny {
		return ""
	}
	return what + " was denied by mistake: " + a.reason
}

// first is the first defect of several checks.
func first(defects ...string) string {
	for _, d := range defects {
		if d != "" {
			return d
		}
	}
	return ""
}
