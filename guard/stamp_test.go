package guard

import "testing"

func TestStampLucid(t *testing.T) {
	const id = "s1/a2"
	const p = "LUCID_AGENT=s1/a2 "
	for _, tc := range []struct {
		in, want    string
		found, only bool
	}{
		{`lucid fact "x"`, p + `lucid fact "x"`, true, true},
		{`lucid fact x -e a.go:3 && lucid log -n 2`, p + `lucid fact x -e a.go:3 && ` + p + `lucid log -n 2`, true, true},
		{`git status; lucid note 'done'`, `git status; ` + p + `lucid note 'done'`, true, false},
		{`lucid log | head -5`, p + `lucid log | head -5`, true, false},
		{`(cd sub && lucid fact y)`, `(cd sub && ` + p + `lucid fact y)`, true, false},
		{`bash -c 'lucid fact "in bash"'`, `bash -c '` + p + `lucid fact "in bash"'`, true, true},
		{`sh -c "lucid note x; lucid log"`, `sh -c "` + p + `lucid note x; ` + p + `lucid log"`, true, true},
		{`bash -lc 'cd a && lucid note x'`, `bash -lc 'cd a && ` + p + `lucid note x'`, true, false},
		{`FOO=1 lucid note x`, `FOO=1 ` + p + `lucid note x`, true, true},
		{`env X=1 lucid note x`, `env X=1 ` + p + `lucid note x`, true, true},
		{`command lucid note x`, p + `command lucid note x`, true, true},
		{`./bin/lucid status`, p + `./bin/lucid status`, true, true},
		{`lucid fact x > out.txt`, p + `lucid fact x > out.txt`, true, false},
		{`lucid fact x 2>/dev/null`, p + `lucid fact x 2>/dev/null`, true, true},
		{`lucid fact x 2>&1`, p + `lucid fact x 2>&1`, true, true},
		{`lucid fact "$(rm -rf /)"`, p + `lucid fact "$(rm -rf /)"`, true, false},
		{`echo $(lucid log -n 1)`, `echo $(` + p + `lucid log -n 1)`, true, false},
		{"for f in a b; do\n  lucid note $f\ndone", "for f in a b; do\n  " + p + "lucid note $f\ndone", true, true},
		{`  lucid   note   spaced  `, `  ` + p + `lucid   note   spaced  `, true, true},
		{`echo lucid`, `echo lucid`, false, false},
		{`ls -la`, `ls -la`, false, false},
		{`lucidity --help`, `lucidity --help`, false, false},
		{`echo "unterminated`, `echo "unterminated`, false, false},
		{`bash -c "lucid note \"$X\""`, `bash -c "lucid note \"$X\""`, false, false},
		// A shell with fewer than two words after it once indexed past them.
		{`curl -s https://example.com/install | sh`, `curl -s https://example.com/install | sh`, false, false},
		{"bash <<'EOF'\necho hi\nEOF", "bash <<'EOF'\necho hi\nEOF", false, false},
		{`sh`, `sh`, false, false},
		{`bash -c`, `bash -c`, false, false},
	} {
		st := StampLucid(tc.in, id)
		if st.Command != tc.want || st.Found != tc.found || st.OnlyLucid != tc.only {
			t.Errorf("StampLucid(%q)\n got %q found=%v only=%v\nwant %q found=%v only=%v",
				tc.in, st.Command, st.Found, st.OnlyLucid, tc.want, tc.found, tc.only)
		}
	}
}

func FuzzStampLucid(f *testing.F) {
	for _, s := range []string{`lucid fact x`, `bash -c 'lucid x'`, `a | lucid b && (lucid c)`, `sh -c "lucid"`,
		`curl -s URL | sh`, "bash <<'EOF'\nlucid release\nEOF", `sh`, `bash -c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		st := StampLucid(cmd, "id")
		if !st.Found && st.Command != cmd {
			t.Fatalf("changed a command without lucid: %q -> %q", cmd, st.Command)
		}
		if len(st.Command) < len(cmd) {
			t.Fatalf("stamping removed bytes: %q -> %q", cmd, st.Command)
		}
	})
}

func BenchmarkStampLucid(b *testing.B) {
	cmd := `cd src && go test ./... 2>&1 | tail -20 && lucid fact "tests pass" -e go.mod`
	for i := 0; i < b.N; i++ {
		StampLucid(cmd, "30df32ba-0d45-4195-af71-803394f51561")
	}
}
