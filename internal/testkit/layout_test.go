// Package testkit_test keeps docs/layout.md true: every package folder of
// the module is in its tree, and the test kit stays out of what ships.
package testkit_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the module's folder, from this package's.
var root = filepath.Join("..", "..")

// kit is the test kit's folder; the bench alone among the production
// packages may import it, since it drives a browser (kit/browser).
const (
	kit      = "internal/testkit"
	bench    = "cmd/lucid-bench"
	contract = "internal/client"
)

func TestLayoutNamesEveryPackage(t *testing.T) {
	named := layoutTree(t)
	for _, p := range modulePackages(t) {
		if !named[p.dir] {
			t.Errorf("docs/layout.md names no folder %s: add it to the tree with a line on what it holds", p.dir)
		}
	}
}

func TestOnlyTheBenchImportsTheTestKit(t *testing.T) {
	for _, p := range modulePackages(t) {
		if p.dir == bench || within(p.dir, kit) {
			continue
		}
		for _, imp := range p.imports {
			if within(imp, kit) {
				t.Errorf("%s imports %s: only tests and %s may import the test kit", p.dir, imp, bench)
			}
		}
	}
}

// within reports whether the folder dir is top or under it.
func within(dir, top string) bool { return dir == top || strings.HasPrefix(dir, top+"/") }

// pkg is a package of the module: its folder and what its non-test files
// import, both relative to the module's folder where they are the module's.
type pkg struct {
	dir     string
	imports []string
}

func modulePackages(t *testing.T) []pkg {
	t.Helper()
	list := exec.Command("go", "list", "-f", "{{.Module.Path}} {{.ImportPath}} {{join .Imports \" \"}}", "./...")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var pkgs []pkg
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		module := fields[0] + "/"
		p := pkg{dir: strings.TrimPrefix(fields[1], module)}
		for _, imp := range fields[2:] {
			if strings.HasPrefix(imp, module) {
				p.imports = append(p.imports, strings.TrimPrefix(imp, module))
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// layoutTree reads the tree of docs/layout.md, the text block under "## The
// tree": a folder a line, NAME/ indented two spaces a level below the
// folder it is in, then what it holds. It returns every folder's path.
func layoutTree(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	named := map[string]bool{}
	var parents []string // the folders the next line may be in, outermost first
	inTree, inBlock := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !inTree:
			inTree = line == "## The tree"
			continue
		case strings.HasPrefix(line, "```"):
			if inBlock {
				return named
			}
			inBlock = true
			continue
		case !inBlock || strings.TrimSpace(line) == "":
			continue
		}
		name := strings.Fields(line)[0]
		indent := len(line) - len(strings.TrimLeft(line, " "))
		depth := indent / 2
		if indent%2 != 0 || depth > len(parents) || !strings.HasSuffix(name, "/") {
			t.Fatalf("docs/layout.md:%d: a line of the tree is a folder, NAME/, indented two spaces a level below its parent: %q", n, line)
		}
		parents = append(parents[:depth], strings.TrimSuffix(name, "/"))
		named[strings.Join(parents, "/")] = true
	}
	t.Fatal("docs/layout.md has no tree: a ```text block under \"## The tree\"")
	return nil
}

var update = flag.Bool("update", false, "write the arrows of docs/layout.md from the packages' imports")

// The arrows between groups in docs/layout.md are the imports of the
// packages' non-test files, grouped: written by go test -update, checked
// here, so that the page cannot say one thing while the code does another.
func TestLayoutArrows(t *testing.T) {
	path := filepath.Join(root, "docs", "layout.md")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- arrows: written by go test ./internal/testkit -update -->\n", "<!-- end of arrows -->\n"
	i, j := bytes.Index(page, []byte(start)), bytes.Index(page, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("docs/layout.md has no arrows between %q and %q: add the two lines, then run go test ./internal/testkit -update", start, end)
	}
	want := arrows(t, modulePackages(t))
	got := string(page[i+len(start) : j])
	if got == want {
		return
	}
	if *update {
		out := slices.Concat(page[:i+len(start)], []byte(want), page[j:])
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/layout.md's arrows are not what the packages import: run go test ./internal/testkit -update, then read the change\nwant:\n%s", want)
}

// group is the group of the layout a package folder belongs to: a command,
// a folder of the root, or a folder of internal/; the clients apart from
// their contract, which they and the installers import.
func group(dir string) string {
	parts := strings.Split(dir, "/")
	switch {
	case dir != contract && within(dir, contract):
		return contract + "/*"
	case parts[0] == "cmd" && len(parts) > 1, parts[0] == "internal" && len(parts) > 1:
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// arrows is a line a group, each naming the groups its packages import,
// ordered so that every arrow points down the list where it can.
func arrows(t *testing.T, pkgs []pkg) string {
	t.Helper()
	to := map[string]map[string]bool{}
	for _, p := range pkgs {
		g := group(p.dir)
		if g == "e2e" {
			continue // tests only: its files import nothing that ships
		}
		if to[g] == nil {
			to[g] = map[string]bool{}
		}
		for _, imp := range p.imports {
			if h := group(imp); h != g {
				to[g][h] = true
			}
		}
	}
	// Depth-first, importers before what they import; names in order
	// where nothing else decides.
	var order []string
	seen := map[string]bool{}
	var visit func(g string)
	visit = func(g string) {
		if seen[g] {
			return
		}
		seen[g] = true
		for _, h := range slices.Sorted(maps.Keys(to[g])) {
			visit(h)
		}
		order = append(order, g)
	}
	for _, g := range slices.Sorted(maps.Keys(to)) {
		visit(g)
	}
	slices.Reverse(order)
	var b strings.Builder
	for _, g := range order {
		targets := slices.Sorted(maps.Keys(to[g]))
		if len(targets) == 0 {
			fmt.Fprintf(&b, "- `%s` imports nothing of lucid's\n", g)
			continue
		}
		fmt.Fprintf(&b, "- `%s` → `%s`\n", g, strings.Join(targets, "`, `"))
	}
	return b.String()
}
