package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// npmSection times a hook through lucid as `npm i -g @lucid-dev/lucid`
// installs it, beside the plain binary: scripts/npm-pack packs this
// platform's packages, a registry on loopback serves them, and npm installs
// them into a prefix in the bench's temp dir. `lucid` in that prefix's bin
// should be the native binary (the postinstall puts it in the launcher's
// place), so its row should match the plain one's; the row of the node
// launcher is what a hook would cost where it stays (Windows, where npm's
// shims run node, or an install that ran no scripts).
func npmSection(b *bench) error {
	// The same program as the plain binary. A file as npm unpacked it
	// starts 15% slower (the postinstall writes lucid anew for this, see
	// its install.js): the goal is there to see that come back.
	const label = "hook PreToolUse through npm's lucid within 1.1x the plain binary's"
	why := ""
	for _, tool := range []string{"npm", "node", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			why = "no " + tool + " on PATH"
		}
	}
	if why != "" {
		fmt.Fprintf(b.out, "  not measured: %s\n", why)
		b.addUnmeasured(label, why)
		return nil
	}
	dir := filepath.Join(b.root, "npm")
	start := time.Now()
	tarballs, err := gittest.NpmPack(filepath.Join(dir, "pack"), "0.0.0-bench")
	if err != nil {
		return err
	}
	packed := time.Since(start)
	reg, err := gittest.ServeNpm(tarballs)
	if err != nil {
		return err
	}
	defer reg.Close()
	prefix := filepath.Join(dir, "prefix")
	start = time.Now()
	if _, err := gittest.NpmInstall("npm", prefix, reg.URL); err != nil {
		return err
	}
	installed := time.Since(start)
	var sizes string
	for _, t := range tarballs {
		if fi, err := os.Stat(t); err == nil {
			sizes += fmt.Sprintf(", %s %.1f kB", filepath.Base(t), float64(fi.Size())/1e3)
		}
	}
	fmt.Fprintf(b.out, "  packed in %.1f s%s; npm install -g from loopback in %.1f s\n", packed.Seconds(), sizes, installed.Seconds())

	npmLucid := filepath.Join(prefix, "bin", "lucid")
	real, err := filepath.EvalSymlinks(npmLucid)
	if err != nil {
		return err
	}
	if head, err := os.ReadFile(real); err != nil || len(head) < 2 || string(head[:2]) == "#!" {
		return errors.New("npm's lucid on PATH is not the native binary: the postinstall did not replace the launcher")
	}
	// The launcher, as the package ships it, beside the native binary it
	// runs (it finds the platform's package from there).
	top, err := gittest.ModuleTop()
	if err != nil {
		return err
	}
	src, err := os.ReadFile(filepath.Join(top, "scripts", "npm", "lucid", "bin", "lucid"))
	if err != nil {
		return err
	}
	launcher := filepath.Join(filepath.Dir(real), "launcher.js")
	if err := os.WriteFile(launcher, src, 0o644); err != nil {
		return err
	}
	node, _ := exec.LookPath("node")

	n := slices.Min(b.sizes)
	return b.withLog("npm", n, func(s *scratch) error {
		const session = "30df32ba-0d45-4195-af71-803394f51561"
		stdin := fmt.Appendf(nil, `{"session_id":%q,"cwd":%q,"hook_event_name":%q,"permission_mode":"default","tool_name":"Read","tool_input":{"file_path":%q}}`,
			session, s.dir, client.PreToolUse, s.dir+"/a.go")
		start := fmt.Appendf(nil, `{"session_id":%q,"cwd":%q,"hook_event_name":%q,"source":"startup"}`, session, s.dir, client.SessionStart)
		if _, err := b.output(s.dir, start, b.lucid, "hook", client.SessionStart); err != nil {
			return err
		}
		fmt.Fprintf(b.out, "  %-54s %10s %10s %10s %8s\n", "hook PreToolUse (nothing new), "+sizeName(n)+" entries", "median", "max", "floor", "x floor")
		var plain, viaNpm timing
		for _, row := range []struct {
			label string
			argv  []string
			into  *timing
		}{
			{"the plain binary (make build)", []string{b.lucid}, &plain},
			{"npm's lucid on PATH (" + shortPath(npmLucid, prefix) + ")", []string{npmLucid}, &viaNpm},
			{"npm's node launcher (node bin/lucid)", []string{node, launcher}, nil},
		} {
			t, err := b.timeCommand(s.dir, nil, stdin, append(row.argv, "hook", client.PreToolUse)...)
			if err != nil {
				return err
			}
			if row.into != nil {
				*row.into = t
			}
			fmt.Fprintf(b.out, "  %-54s %s %s %s %8.2f\n", row.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
		}
		b.addGoal(label, xFloor(viaNpm)/xFloor(plain), 1.1)
		return nil
	})
}

// shortPath is path within prefix, as PREFIX/...
func shortPath(path, prefix string) string {
	if rel, err := filepath.Rel(prefix, path); err == nil {
		return "PREFIX/" + filepath.ToSlash(rel)
	}
	return path
}
