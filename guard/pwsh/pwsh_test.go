package pwsh

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAnalyze reads PowerShell lines as Codex CLI and Copilot CLI run
// them on Windows: each names the paths written (relative to the work
// folder, a glob after a colon), the native programs handed on, and
// whether the line is unsure.
func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	env := map[string]string{"USERPROFILE": home, "TEMP": filepath.Join(dir, "tmp")}
	cases := []struct {
		line   string
		writes []string
		native []string // each a native's words joined by spaces
		unsure string   // a word of the reason
	}{
		// Every cmdlet and its aliases.
		{line: `Set-Content -Path src\a.go -Value x`, writes: []string{"src/a.go"}},
		{line: `sc src/a.go x`, writes: []string{"src/a.go"}},
		{line: `Add-Content a.txt 'more'`, writes: []string{"a.txt"}},
		{line: `ac -Value 'x' -Path a.txt`, writes: []string{"a.txt"}},
		{line: `"x" | Out-File out.txt`, writes: []string{"out.txt"}},
		{line: `Get-Process | Out-File -FilePath p.txt -Append`, writes: []string{"p.txt"}},
		{line: `ls | Tee-Object -FilePath list.txt`, writes: []string{"list.txt"}},
		{line: `ls | tee list.txt | Out-Null`, writes: []string{"list.txt"}},
		{line: `New-Item -Path notes.md -ItemType File -Force`, writes: []string{"notes.md"}},
		{line: `ni docs -Name x.md -Value hi`, writes: []string{"docs/x.md"}},
		{line: `New-Item -ItemType Directory -Path build`},
		{line: `mkdir build; md out2`},
		{line: `Remove-Item a.txt, b.txt`, writes: []string{"a.txt", "b.txt"}},
		{line: `rm -Recurse -Force build`, writes: []string{"build"}},
		{line: `del a.txt; erase b.txt; ri c.txt; rd d; rmdir e`, writes: []string{"a.txt", "b.txt", "c.txt", "d", "e"}},
		{line: `Remove-Item src\*.tmp`, writes: []string{"src:*.tmp", "src:*.tmp/**"}},
		{line: `Remove-Item -LiteralPath 'a[1].txt'`, writes: []string{"a[1].txt"}},
		{line: `Copy-Item a.txt b.txt`, writes: []string{"b.txt"}},
		{line: `cp a.txt out`, writes: []string{"out/a.txt"}},
		{line: `copy -Path a.txt -Destination c.txt; cpi a.txt d.txt`, writes: []string{"c.txt", "d.txt"}},
		{line: `Move-Item old.txt new.txt`, writes: []string{"old.txt", "new.txt"}},
		{line: `mv a.go out; move b.go c.go; mi d.go e.go`, writes: []string{"a.go", "out/a.go", "b.go", "c.go", "d.go", "e.go"}},
		{line: `Rename-Item src\old.go new.go`, writes: []string{"src/old.go", "src/new.go"}},
		{line: `ren a.txt b.txt; rni -Path c.txt -NewName d.txt`, writes: []string{"a.txt", "b.txt", "c.txt", "d.txt"}},
		{line: `Clear-Content log.txt; clc -Path x.txt`, writes: []string{"log.txt", "x.txt"}},
		{line: `Get-Process | Export-Csv procs.csv -NoTypeInformation`, writes: []string{"procs.csv"}},
		{line: `Invoke-WebRequest https://example.com/x -OutFile x.zip`, writes: []string{"x.zip"}},
		{line: `Expand-Archive x.zip -DestinationPath vendor`, writes: []string{"vendor:**"}},

		// Parameter spellings: prefixes, case, colon values, switches.
		{line: `Set-Content -Pa a.txt -Va x`, writes: []string{"a.txt"}},
		{line: `SET-CONTENT -PATH A.txt -VALUE x`, writes: []string{"A.txt"}},
		{line: `set-content -lit 'b c.txt' -v x`, writes: []string{"b c.txt"}},
		{line: `Set-Content -Path:a.txt -Value:x`, writes: []string{"a.txt"}},
		{line: `Set-Content -Encoding utf8 -NoNewline a.txt x`, writes: []string{"a.txt"}},
		{line: `Remove-Item a.txt -WhatIf`},
		{line: `Remove-Item a.txt -ErrorAction SilentlyContinue`, writes: []string{"a.txt"}},
		{line: `Microsoft.PowerShell.Management\Remove-Item x.txt`, writes: []string{"x.txt"}},

		// Quoting and variables.
		{line: `Set-Content "src\my file.go" x`, writes: []string{"src/my file.go"}},
		{line: `Set-Content 'it''s.txt' x`, writes: []string{"it's.txt"}},
		{line: "Set-Content \"a`\"b.txt\" x", writes: []string{`a"b.txt`}},
		{line: `Set-Content "$HOME\a.txt" x`, writes: []string{"home/a.txt"}},
		{line: `Set-Content $env:USERPROFILE\b.txt x`, writes: []string{"home/b.txt"}},
		{line: `Set-Content ~\c.txt x`, writes: []string{"home/c.txt"}},
		{line: `$f = 'src\a.go'; Set-Content $f x`, writes: []string{"src/a.go"}},
		{line: `$f="b.txt"; Remove-Item $f`, writes: []string{"b.txt"}},
		{line: `Set-Content $path x`, unsure: "variable"},
		{line: `Set-Content "$name.txt" x`, unsure: "variable"},
		{line: `Set-Content (Join-Path $d 'a.txt') x`, unsure: "variable"},
		{line: `Set-Content "$(Get-Date).log" x`, unsure: "variable"},

		// Redirections.
		{line: `echo hi > out.txt`, writes: []string{"out.txt"}},
		{line: `echo hi >> log.txt`, writes: []string{"log.txt"}},
		{line: `dir 2> err.txt`, writes: []string{"err.txt"}},
		{line: `dir *> all.txt`, writes: []string{"all.txt"}},
		{line: `git status 2>&1 > s.txt`, writes: []string{"s.txt"}, native: []string{"git status"}},
		{line: `echo hi >$null; echo x 2>&1; echo y > NUL`},
		{line: `'text' > "q.txt"`, writes: []string{"q.txt"}},

		// Statements and pipelines.
		{line: "Set-Content a.txt x; Set-Content b.txt y\nRemove-Item c.txt", writes: []string{"a.txt", "b.txt", "c.txt"}},
		{line: `git add . && git commit -m x || Remove-Item a.txt`, writes: []string{"a.txt"}, native: []string{"git add .", "git commit -m x"}},
		{line: "Set-Content `\n  -Path a.txt `\n  -Value x", writes: []string{"a.txt"}},
		{line: `# Set-Content a.txt x`},
		{line: `<# Remove-Item a.txt #> Get-Content b.txt`},
		{line: `if (Test-Path a.txt) { Remove-Item a.txt } else { New-Item b.txt }`, writes: []string{"a.txt", "b.txt"}},
		{line: `Get-ChildItem | ForEach-Object { Remove-Item $_ }`, unsure: "variable"},
		{line: `Get-ChildItem *.tmp | Remove-Item`, unsure: "pipeline"},
		{line: `[IO.File]::WriteAllText("src/a.go", "x")`, unsure: ".NET"},
		{line: `[System.IO.File]::AppendAllLines('log.txt', $lines)`, unsure: ".NET"},
		{line: `$w = New-Object System.IO.StreamWriter 'a.txt'; $w.WriteLine('x')`, unsure: ".NET"},
		{line: `[io.directory]::Delete('build', $true)`, unsure: ".NET"},
		{line: `[IO.File]::ReadAllText('a.txt')`},
		{line: `[Math]::Max(1, 2)`},
		{line: `$r = New-Item x.txt`, writes: []string{"x.txt"}},
		{line: `& { Set-Content a.txt x }`, writes: []string{"a.txt"}},
		{line: `Set-Location src; Set-Content a.go x; cd ..; Remove-Item b.txt`, writes: []string{"src/a.go", "b.txt"}},
		{line: `Push-Location out; Remove-Item x; Pop-Location; Remove-Item y`, writes: []string{"out/x", "y"}},
		{line: `cd $d; Remove-Item x`, unsure: "folder"},
		{line: `Remove-Item ..\other\x.txt`, writes: []string{"../other/x.txt"}},

		// Natives go on to the bash reader's table.
		{line: `git checkout -- src/a.go`, native: []string{"git checkout -- src/a.go"}},
		{line: `C:\tools\gofmt.exe -w main.go`, native: []string{"gofmt -w main.go"}},
		{line: `& "C:\Program Files\Git\bin\git.exe" restore .`, native: []string{"git restore ."}},
		{line: `bash -c 'echo x > a.txt'`, native: []string{"bash -c echo x > a.txt"}},
		{line: `pwsh -NoProfile -Command "Remove-Item a.txt"`, native: []string{"pwsh -NoProfile -Command Remove-Item a.txt"}},

		// What it cannot read.
		{line: `Invoke-Expression "Remove-Item a.txt"`, unsure: "Invoke-Expression"},
		{line: `iex $cmd`, unsure: "Invoke-Expression"},
		{line: `& $tool a.txt`, unsure: "variable"},
		{line: `cmd /c "del a.txt"`, unsure: "cmd.exe"},
		{line: `.\build.ps1 -Clean`, unsure: "script"},
		{line: `. .\env.ps1`, unsure: "script"},
		{line: `powershell -File setup.ps1`, native: []string{"powershell -File setup.ps1"}},
		{line: `pwsh -EncodedCommand ZQBjAGgAbwA=`, native: []string{"pwsh -EncodedCommand ZQBjAGgAbwA="}},
		{line: `Start-Process notepad a.txt`, unsure: "Start-Process"},
		{line: `make.bat`, unsure: "cmd.exe"},

		// Lines that write nothing.
		{line: `Get-Content a.txt`},
		{line: `Select-String -Path *.go -Pattern TODO`},
		{line: `ls; dir src; cat a.txt | sls TODO`},
		{line: `Get-ChildItem -Recurse -Filter *.go | Measure-Object`},
		{line: `Write-Host "done"; Write-Output $x`},
		{line: `$x = 1; $y = $x + 2`},
		{line: `Test-Path src\a.go`},
	}
	for _, c := range cases {
		a := analyze(c.line, dir, home, func(k string) string { return env[k] })
		var got []string
		for _, w := range a.Writes {
			rel, err := filepath.Rel(dir, w.Path)
			if err != nil {
				rel = w.Path
			}
			rel = filepath.ToSlash(rel)
			if w.Under != "" {
				rel += ":" + w.Under
			}
			got = append(got, rel)
		}
		want := slices.Clone(c.writes)
		if !slices.Equal(got, want) {
			t.Errorf("%s\nwrites %q, want %q", c.line, got, want)
		}
		var nat []string
		for _, n := range a.Native {
			var words []string
			for _, w := range n.Args {
				words = append(words, w.Text)
			}
			nat = append(nat, strings.Join(words, " "))
		}
		if !slices.Equal(nat, c.native) {
			t.Errorf("%s\nnatives %q, want %q", c.line, nat, c.native)
		}
		switch {
		case c.unsure == "" && a.Unsure != "":
			t.Errorf("%s\nunsure: %s", c.line, a.Unsure)
		case c.unsure != "" && !strings.Contains(a.Unsure, c.unsure):
			t.Errorf("%s\nunsure %q, want a reason with %q", c.line, a.Unsure, c.unsure)
		}
	}
}

// TestBounds: hostile lines cost a bounded walk and say so.
func TestBounds(t *testing.T) {
	deep := strings.Repeat("& { ", 20) + "Remove-Item a" + strings.Repeat(" }", 20)
	if a := analyze(deep, "/w", "", func(string) string { return "" }); !strings.Contains(a.Unsure, "deep") {
		t.Errorf("deep nesting: %+v", a)
	}
	long := strings.Repeat("Get-Content a; ", 5000)
	if a := analyze(long, "/w", "", func(string) string { return "" }); !strings.Contains(a.Unsure, "too long") {
		t.Errorf("long line: %q", a.Unsure)
	}
	if a := analyze(strings.Repeat("x", maxBytes+1), "/w", "", nil); a.Unsure != unsureBytes {
		t.Errorf("big line: %q", a.Unsure)
	}
}
