package reqlog

import (
	"sync"
	"testing"
	"time"
)

type req struct{ Seq int }

func TestAddNumbersAndWakes(t *testing.T) {
	var l Log[*req]
	var wg sync.WaitGroup
	woke := make(chan bool)
	go func() { woke <- l.Wait(10*time.Second, func(rs []*req) bool { return len(rs) == 3 }) }()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &req{}
			l.Add(r, &r.Seq)
		}()
	}
	wg.Wait()
	if !<-woke {
		t.Fatal("Wait did not see three requests")
	}
	for i, r := range l.All() {
		if r.Seq != i+1 {
			t.Errorf("request %d has Seq %d", i, r.Seq)
		}
	}
	if l.Wait(20*time.Millisecond, func(rs []*req) bool { return len(rs) == 4 }) {
		t.Error("Wait saw a request never added")
	}
	l.Problem("no script for %q", "x")
	if p := l.Problems(); len(p) != 1 || p[0] != `no script for "x"` {
		t.Errorf("Problems = %q", p)
	}
	if Clip("abcdef", 3) != "abc…" || Clip("abc", 3) != "abc" {
		t.Error("Clip cuts wrong")
	}
}
