package browser

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestStart(t *testing.T) {
	if _, err := Path(); err != nil {
		t.Skip(err)
	}
	tab, cancel, err := Start(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate("data:text/html,<title>hi</title><p id=x>lucid</p>")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('x').textContent`))
	if err != nil || got != "lucid" {
		t.Fatalf("the page's text: %q, %v", got, err)
	}
}
