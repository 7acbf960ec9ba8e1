package scripted

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

type req struct{ Request }

func TestAddNumbersAndWakes(t *testing.T) {
	s := New("", func(r Request) *req { return &req{r} },
		func(w http.ResponseWriter, _ *http.Request, r *req) {}, func(*req) string { return "" })
	s.Start()
	defer s.Close()
	var wg sync.WaitGroup
	woke := make(chan bool)
	go func() { woke <- s.Wait(10*time.Second, func(rs []*req) bool { return len(rs) == 3 }) }()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Add(&req{})
		}()
	}
	wg.Wait()
	if !<-woke {
		t.Fatal("Wait did not see three requests")
	}
	for i, r := range s.Requests() {
		if r.Seq != i+1 {
			t.Errorf("request %d has Seq %d", i, r.Seq)
		}
	}
	if s.Wait(20*time.Millisecond, func(rs []*req) bool { return len(rs) == 4 }) {
		t.Error("Wait saw a request never added")
	}
	s.Problem("no script for %q", "x")
	if p := s.Problems(); len(p) != 1 || p[0] != `no script for "x"` {
		t.Errorf("Problems = %q", p)
	}
	if Clip("abcdef", 3) != "abc…" || Clip("abc", 3) != "abc" {
		t.Error("Clip cuts wrong")
	}
}
