package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/view/web"
)

func init() { register(command{name: "web", run: runWeb}) }

const webHelp = `lucid web [--addr HOST:PORT] [--open] [--read-only]

Serves a live page of this repository's agents, claims on the work tree,
log and plan, and prints its address; Ctrl-C stops it. The page shows what
the hooks write as they write it, and lets you act as the person: release
an agent's claims, edit the plan, record a note or a decision, supersede or
retire an entry, send a message to an agent. Each action is recorded as its
command records it.

The server listens on 127.0.0.1, on a free port unless --addr names one.
The address it prints carries a random token, which every read and action
needs; keep it to yourself. The page keeps it in its tab, not in a cookie,
so other servers of this machine you open in the browser never get it. Refused in an agent's shell: the page acts as the
person.
`

func runWeb(args []string, stdout, stderr io.Writer) error {
	f := flag.NewFlagSet("web", flag.ContinueOnError)
	f.SetOutput(io.Discard)
	addr := f.String("addr", "", "listen on `HOST:PORT` instead; an address other machines reach is warned of")
	open := f.Bool("open", false, "open the page in the browser")
	readOnly := f.Bool("read-only", false, "show only: no action, for a shared screen")
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, webHelp)
			printFlags(stdout, f)
			return nil
		}
		return usageError{err.Error() + ": lucid web --help lists the flags"}
	}
	if f.NArg() > 0 {
		return usageError{"lucid web takes no arguments, only flags: lucid web --help"}
	}
	repo, err := personRepo()
	if err != nil {
		return err
	}
	s, err := web.Listen(repo, web.Options{Addr: *addr, ReadOnly: *readOnly, Naming: identity.Naming()})
	if err != nil {
		return err
	}
	if a := s.Exposed(); a != "" {
		fmt.Fprintf(stderr, "lucid web: warning: listening on %s, which other machines may reach: anyone with the address and its token can act as you\n", a)
	}
	fmt.Fprintf(stdout, "lucid web: the page of %s is at\n%s\nCtrl-C stops the server.\n", repo.Top, s.URL())
	if *open {
		openBrowser(s.URL(), func(err error) {
			fmt.Fprintf(stderr, "lucid web: warning: could not open a browser (%v): open the address above\n", err)
		})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return s.Serve(ctx)
}

// openBrowser opens url in the desktop's browser, and calls failed if the
// opener cannot be run or says it failed.
func openBrowser(url string, failed func(error)) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		// start would read the & of a query as its shell's.
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		failed(err)
		return
	}
	go func() {
		if err := cmd.Wait(); err != nil {
			failed(fmt.Errorf("%s: %w", cmd.Args[0], err))
		}
	}()
}

// printFlags lists f's flags as lucid's own commands list theirs.
func printFlags(w io.Writer, f *flag.FlagSet) {
	var heads, usages []string
	width := 0
	f.VisitAll(func(fl *flag.Flag) {
		arg, usage := flag.UnquoteUsage(fl)
		head := "      --" + fl.Name
		if arg != "" {
			head += " " + arg
		}
		heads, usages = append(heads, head), append(usages, usage)
		width = max(width, len(head))
	})
	fmt.Fprint(w, "\nflags:\n")
	for i := range heads {
		fmt.Fprintf(w, "%-*s   %s\n", width, heads[i], usages[i])
	}
}
