package main

import (
	"os/exec"
	"strings"
	"testing"
)

// lucid-view links none of the hook path: no shell parser, no guard, no
// engine, no merge driver, no installer and no client's adapter. It knows
// the clients by their identities alone (client/identity), which tell an
// agent's shell from a person's terminal and name agents as lucid does.
func TestLinksNoHookPath(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/lucid-dev/lucid/"
	banned := func(pkg string) bool {
		switch {
		case strings.HasPrefix(pkg, "mvdan.cc/sh/"):
			return true
		case pkg == mod+"guard", pkg == mod+"hooks", pkg == mod+"merge", pkg == mod+"internal/installers":
			return true
		case strings.HasPrefix(pkg, mod+"internal/client/"):
			return pkg != mod+"internal/client/identity"
		}
		return false
	}
	for _, pkg := range strings.Fields(string(out)) {
		if banned(pkg) {
			t.Errorf("lucid-view links %s", pkg)
		}
	}
}
