// Package browser starts the headless Chromium that the page's tests and
// its bench drive, with the flags a machine without a network needs.
package browser

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Path is Chromium's binary: $LUCID_CHROMIUM, else chromium (Debian's
// package) or chromium-browser or google-chrome on PATH.
func Path() (string, error) {
	if p := os.Getenv("LUCID_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (Debian: apt-get install chromium; or set LUCID_CHROMIUM)")
}

// Start starts a headless Chromium with a profile of its own in dir and
// returns a context of its first tab; cancel closes it.
func Start(ctx context.Context, dir string) (context.Context, context.CancelFunc, error) {
	path, err := Path()
	if err != nil {
		return nil, nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox, // root in a container has no user namespaces
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1280, 860),
		// Without these Chromium reaches for Google's hosts at every start
		// and, on a closed network, stalls on them.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(actx)
	if err := chromedp.Do(tab); err != nil { // starts the browser
		cancelTab()
		cancelAlloc()
		return nil, nil, err
	}
	return tab, func() { cancelTab(); cancelAlloc() }, nil
}
