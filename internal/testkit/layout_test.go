// Package testkit_test keeps docs/layout.md true: every package folder of
// the module is in its tree, and the test kit stays out of what ships.
package testkit_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// root is the module's folder, from this package's.
var root = filepath.Join("..", "..")

// kit is the test kit's folder; the bench alone among the production
// packages may import it, since it drives a browser (kit/browser).
const (
	kit   = "internal/testkit"
	bench = "cmd/lucid-bench"
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
