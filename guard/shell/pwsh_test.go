package shell

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPowerShell: a PowerShell line's cmdlets write through package pwsh
// and its native programs as a bash line's would; a bash line's pwsh -c
// or powershell -Command script is read as PowerShell.
func TestPowerShell(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		ps     bool // the line is PowerShell's, else bash's
		line   string
		writes []string
		unsure string
	}{
		{ps: true, line: `Set-Content -Path src\a.go -Value x; sed -i s/a/b/ b.go`, writes: []string{"src/a.go", "b.go"}},
		{ps: true, line: `gofmt -w main.go | Out-Null; "x" > c.txt`, writes: []string{"c.txt", "main.go"}},
		{ps: true, line: `cd sub; touch t.txt`, writes: []string{"sub/t.txt"}},
		{ps: true, line: `bash -c 'echo x > a.txt'`, writes: []string{"a.txt"}},
		{ps: true, line: `pwsh -NoProfile -Command "Remove-Item gone.txt"`, writes: []string{"gone.txt"}},
		{ps: true, line: `pwsh -EncodedCommand ZQBjAGgAbwA=`, unsure: "encoded"},
		{ps: true, line: `Remove-Item $f`, unsure: "variable"},
		{line: `pwsh -c 'Set-Content a.txt x'`, writes: []string{"a.txt"}},
		{line: `powershell.exe -NoLogo -NoProfile -Command "New-Item b.txt; Remove-Item c.txt"`, writes: []string{"b.txt", "c.txt"}},
		{line: `powershell "Remove-Item d.txt"`, writes: []string{"d.txt"}},
		{line: `pwsh -WorkingDirectory sub -c 'Remove-Item e.txt'`, writes: []string{"sub/e.txt"}},
		{line: `pwsh -File build.ps1`, unsure: "build.ps1"},
		{line: `pwsh build.ps1`, unsure: "build.ps1"},
		{line: `pwsh -ec ZQBjAGgAbwA=`, unsure: "encoded"},
		{line: `pwsh -c 'Get-Content a.txt'`},
		{line: `pwsh -Version`},
	}
	for _, c := range cases {
		var a Analysis
		if c.ps {
			a = PowerShell(c.line, dir)
		} else {
			a = Analyze(c.line, dir)
		}
		var got []string
		for _, w := range a.Writes {
			rel, _ := filepath.Rel(dir, w.Path)
			got = append(got, filepath.ToSlash(rel))
		}
		if !slices.Equal(got, c.writes) {
			t.Errorf("%s\nwrites %q, want %q", c.line, got, c.writes)
		}
		if c.unsure == "" && a.Unsure != "" || !strings.Contains(a.Unsure, c.unsure) {
			t.Errorf("%s\nunsure %q, want %q", c.line, a.Unsure, c.unsure)
		}
	}
}
