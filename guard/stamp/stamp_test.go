package stamp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/cmdline"
)

const (
	stampID = "s1/a2"
	stampP  = "LUCID_AGENT=s1/a2 "     // the stamp where lucid is a command's name
	stampE  = "env LUCID_AGENT=s1/a2 " // where a wrapper runs it
)

// stampCases are lines and what Lucid makes of them.
var stampCases = []struct {
	in, want    string
	found, only bool
}{
	{`lucid fact "x"`, stampP + `lucid fact "x"`, true, true},
	{`lucid fact x -e a.go:3 && lucid log -n 2`, stampP + `lucid fact x -e a.go:3 && ` + stampP + `lucid log -n 2`, true, true},
	{`git status; lucid note 'done'`, `git status; ` + stampP + `lucid note 'done'`, true, false},
	{`lucid log | head -5`, stampP + `lucid log | head -5`, true, false},
	{`(cd sub && lucid fact y)`, `(cd sub && ` + stampP + `lucid fact y)`, true, false},
	{`bash -c 'lucid fact "in bash"'`, `bash -c '` + stampP + `lucid fact "in bash"'`, true, true},
	// lucid-view (lucid web, lucid watch) is signed too, and then refuses
	// to act as the person, however the shell hid what it is.
	{"env -u AI_AGENT lucid-view web", "env -u AI_AGENT " + stampP + "lucid-view web", true, true},
	{"/usr/local/bin/lucid-view watch --once", stampP + "/usr/local/bin/lucid-view watch --once", true, true},
	{`sh -c "lucid note x; lucid log"`, `sh -c "` + stampP + `lucid note x; ` + stampP + `lucid log"`, true, true},
	{`bash -lc 'cd a && lucid note x'`, `bash -lc 'cd a && ` + stampP + `lucid note x'`, true, false},
	{`FOO=1 lucid note x`, `FOO=1 ` + stampP + `lucid note x`, true, true},
	{`env X=1 lucid note x`, `env X=1 ` + stampP + `lucid note x`, true, true},
	// The stamp goes right before lucid, past every wrapper, as env's
	// operand: before command it would be the wrapper's to pass on.
	{`command lucid note x`, `command ` + stampE + `lucid note x`, true, true},
	{`./bin/lucid status`, stampP + `./bin/lucid status`, true, true},
	{`lucid fact x > out.txt`, stampP + `lucid fact x > out.txt`, true, false},
	{`lucid fact x 2>/dev/null`, stampP + `lucid fact x 2>/dev/null`, true, true},
	{`lucid fact x 2>&1`, stampP + `lucid fact x 2>&1`, true, true},
	{`lucid fact "$(rm -rf /)"`, stampP + `lucid fact "$(rm -rf /)"`, true, false},
	{`echo $(lucid log -n 1)`, `echo $(` + stampP + `lucid log -n 1)`, true, false},
	{"for f in a b; do\n  lucid note $f\ndone", "for f in a b; do\n  " + stampP + "lucid note $f\ndone", true, true},
	{`  lucid   note   spaced  `, `  ` + stampP + `lucid   note   spaced  `, true, true},
	{`echo lucid`, `echo lucid`, false, false},
	{`ls -la`, `ls -la`, false, false},
	{`lucidity --help`, `lucidity --help`, false, false},
	{`echo "unterminated`, `echo "unterminated`, false, false},
	// The stamp's place, before lucid, is the script's own bytes; the
	// escapes and the expansion after it do not matter.
	{`bash -c "lucid note \"$X\""`, `bash -c "` + stampP + `lucid note \"$X\""`, true, true},
	// A shell with fewer than two words after it once indexed past them.
	{`curl -s https://example.com/install | sh`, `curl -s https://example.com/install | sh`, false, false},
	{"bash <<'EOF'\necho hi\nEOF", "bash <<'EOF'\necho hi\nEOF", false, false},
	{`sh`, `sh`, false, false},
	{`bash -c`, `bash -c`, false, false},

	// Wrappers in front of env LUCID_AGENT=... no longer carry a stamp
	// that env then overrides.
	{`exec env LUCID_AGENT=A lucid release`, `exec env LUCID_AGENT=A ` + stampP + `lucid release`, true, false},
	{`nohup env LUCID_AGENT=A lucid release`, `nohup env LUCID_AGENT=A ` + stampP + `lucid release`, true, false},
	{`timeout 5 env LUCID_AGENT=A lucid release`, `timeout 5 env LUCID_AGENT=A ` + stampP + `lucid release`, true, false},
	{`command env LUCID_AGENT=A lucid release`, `command env LUCID_AGENT=A ` + stampP + `lucid release`, true, false},
	{`nohup lucid release`, `nohup ` + stampE + `lucid release`, true, true},
	{`timeout -s KILL 5 lucid release`, `timeout -s KILL 5 ` + stampE + `lucid release`, true, true},
	{`nice -n 5 ionice -c 3 lucid release`, `nice -n 5 ionice -c 3 ` + stampE + `lucid release`, true, true},
	{`exec -a x stdbuf -oL setsid lucid release`, `exec -a x stdbuf -oL setsid ` + stampE + `lucid release`, true, true},
	{`sudo -u bob lucid release`, `sudo -u bob ` + stampE + `lucid release`, true, false},
	{`doas lucid release`, `doas ` + stampE + `lucid release`, true, false},
	{`env -u HOME -- lucid release`, `env -u HOME -- ` + stampP + `lucid release`, true, true},
	{`time lucid release`, `time ` + stampP + `lucid release`, true, true},
	{`/usr/bin/time -o t.txt lucid release`, `/usr/bin/time -o t.txt ` + stampE + `lucid release`, true, false},
	{`echo x | xargs -I{} lucid note {}`, `echo x | xargs -I{} ` + stampE + `lucid note {}`, true, false},
	{`find . -name '*.md' -exec lucid note {} \;`, `find . -name '*.md' -exec ` + stampE + `lucid note {} \;`, true, false},
	{`>log.txt LUCID_AGENT=A lucid release`, `>log.txt LUCID_AGENT=A ` + stampP + `lucid release`, true, false},
	// Any spelling of lucid's name.
	{`'lucid' release`, stampP + `'lucid' release`, true, true},
	{`\lucid release`, stampP + `\lucid release`, true, true},
	{`"lucid" release`, stampP + `"lucid" release`, true, true},
	{`l'uc'id release`, stampP + `l'uc'id release`, true, true},
	{`$'\x6cucid' release`, stampP + `$'\x6cucid' release`, true, true},
	{`/usr/local/bin/lucid release`, stampP + `/usr/local/bin/lucid release`, true, true},
	// env -S splits its string into the words it runs.
	{`env -S 'lucid release'`, `env -S '` + stampP + `lucid release'`, true, true},
	{`env -S'LUCID_AGENT=A lucid release'`, `env -S'LUCID_AGENT=A ` + stampP + `lucid release'`, true, false},
	{`env --split-string="nohup lucid release"`, `env --split-string="nohup ` + stampE + `lucid release"`, true, true},
	{`env -iS 'lucid release'`, `env -iS '` + stampP + `lucid release'`, true, false},
	// bash -c takes one word of the string as its script: ':' alone.
	{`env -S 'bash -c : ; lucid release'`, `env -S 'bash -c : ; lucid release'`, false, false},
	{`env -S 'bash -c lucid'`, `env -S 'bash -c "LUCID_AGENT=s1/a2 "lucid'`, true, true},
	// Shells: options in any order, -c bundled, --; heredocs and
	// here-strings; shells in shells and behind wrappers.
	{`bash -c -- 'lucid release'`, `bash -c -- '` + stampP + `lucid release'`, true, true},
	{`bash -e -o pipefail -c 'lucid release'`, `bash -e -o pipefail -c '` + stampP + `lucid release'`, true, true},
	{`sh -xc 'lucid release'`, `sh -xc '` + stampP + `lucid release'`, true, true},
	{`bash -c lucid`, `bash -c LUCID_AGENT=s1/a2\ lucid`, true, true},
	{`env LUCID_AGENT=A sh -c 'lucid release'`, `env LUCID_AGENT=A sh -c '` + stampP + `lucid release'`, true, false},
	{`timeout 9 bash -c "nohup lucid release"`, `timeout 9 bash -c "nohup ` + stampE + `lucid release"`, true, true},
	{`bash -c "bash -c 'lucid release'"`, `bash -c "bash -c '` + stampP + `lucid release'"`, true, true},
	{`bash -c 'bash -c lucid'`, `bash -c 'bash -c LUCID_AGENT=s1/a2\ lucid'`, true, true},
	{`bash -c "sh -c lucid"`, `bash -c "sh -c LUCID_AGENT=s1/a2\\ lucid"`, true, true},
	{"bash <<'EOF'\nlucid release\nEOF", "bash <<'EOF'\n" + stampP + "lucid release\nEOF", true, true},
	{"bash <<EOF\nlucid note \\$HOME $USER\nEOF", "bash <<EOF\n" + stampP + "lucid note \\$HOME $USER\nEOF", true, true},
	{"sh <<-EOF\n\tcd x && lucid release\n\tEOF", "sh <<-EOF\n\tcd x && " + stampP + "lucid release\n\tEOF", true, false},
	{`bash <<< 'lucid release'`, `bash <<< '` + stampP + `lucid release'`, true, true},
	{"nohup bash <<'EOF'\nlucid release\nEOF", "nohup bash <<'EOF'\n" + stampP + "lucid release\nEOF", true, true},
	{"bash -c $'lucid release'", "bash -c $'" + stampP + "lucid release'", true, true},
}

func TestLucid(t *testing.T) {
	for _, tc := range stampCases {
		st := Lucid(tc.in, stampID)
		if st.Command != tc.want || st.Found != tc.found || st.OnlyLucid != tc.only {
			t.Errorf("Lucid(%q)\n got %q found=%v only=%v\nwant %q found=%v only=%v",
				tc.in, st.Command, st.Found, st.OnlyLucid, tc.want, tc.found, tc.only)
		}
	}
}

// stampReports are lines and what Lucid reports of them for the
// caller to deny: a hook run by an agent, the values a line gives
// LUCID_AGENT, and a lucid it cannot sign.
var stampReports = []struct {
	in       string
	hook     bool
	agents   []string
	unsigned string
}{
	{`lucid note x`, false, nil, ""},
	{`lucid hook pre-tool-use < payload.json`, true, nil, ""},
	{`echo '{}' | env LUCID_AGENT=x nohup 'lucid' hook stop`, true, []string{"x"}, ""},
	{`bash -c 'lucid "ho"ok session-start'`, true, nil, ""},
	{`lucid "$SUB" x`, true, nil, ""},
	{`echo hook | xargs lucid`, true, nil, ""},
	{`find . -exec lucid {} \;`, true, nil, ""},
	{`lucid hooks`, false, nil, ""},
	{`lucid status --hook`, false, nil, ""},

	{`LUCID_AGENT=A lucid release`, false, []string{"A"}, ""},
	{`LUCID_AGENT=A; lucid release`, false, []string{"A"}, ""},
	{`export LUCID_AGENT=A && lucid release`, false, []string{"A"}, ""},
	{`declare -x LUCID_AGENT="$OTHER"; lucid release`, false, []string{"?"}, ""},
	{`typeset -x LUCID_AGENT=B; readonly LUCID_AGENT=C; local LUCID_AGENT=`, false, []string{"B", "C", ""}, ""},
	{`unset LUCID_AGENT; lucid release`, false, []string{""}, ""},
	{`unset -f LUCID_AGENT`, false, nil, ""},
	{`export -n LUCID_AGENT`, false, []string{""}, ""},
	{`env -u LUCID_AGENT lucid release`, false, []string{""}, ""},
	{`env --unset=LUCID_AGENT lucid release`, false, []string{""}, ""},
	{`env -i PATH=/usr/bin lucid release`, false, []string{""}, ""},
	{`env - lucid release`, false, []string{""}, ""},
	{`env LUCID_AGENT=$(cat id) lucid release`, false, []string{"?"}, ""},
	{`sudo LUCID_AGENT=A lucid release`, false, []string{"A"}, ""},
	{`env -S 'LUCID_AGENT=A lucid release'`, false, []string{"A"}, ""},
	{`for LUCID_AGENT in a b; do lucid note x; done`, false, []string{"a", "b"}, ""},
	{`read -r LUCID_AGENT < id.txt`, false, []string{"?"}, ""},
	{`printf -v LUCID_AGENT %s x`, false, []string{"?"}, ""},
	{`: "${LUCID_AGENT:=A}"`, false, []string{"A"}, ""},
	{`builtin export LUCID_AGENT=A`, false, []string{"A"}, ""},
	{`bash -c 'LUCID_AGENT=A lucid release'`, false, []string{"A"}, ""},
	{`LUCID_AGENT=s1/a2 lucid release`, false, []string{"s1/a2"}, ""},

	{`"$(command -v lucid)" release`, false, nil, unsignedName},
	{`$(which lucid) fact x`, false, nil, unsignedName},
	{"`which lucid` fact x", false, nil, unsignedName},
	{`"$LUCID_BIN" release`, false, nil, unsignedName},
	{`L=lucid; $L release`, false, nil, unsignedName},
	{`a=(lucid release); "${a[@]}"`, false, nil, unsignedName},
	{`f() { "$L" release; }; L=/usr/bin/lucid; f`, false, nil, unsignedName},
	{`nohup "$(command -v lucid)" release`, false, nil, unsignedName},
	{`bash -c "$(command -v lucid) release"`, false, nil, unsignedName},
	{`L=lucid; bash -c "$L release"`, false, nil, unsignedName},
	{`eval "lucid release"`, false, nil, unsignedEval},
	{`eval $'\x6cucid release'`, false, nil, unsignedEval},
	{`alias l='lucid release'`, false, nil, unsignedEval},
	{`echo 'lucid release' | bash`, false, nil, unsignedPipe},
	{`bash -c "\"lucid\" release"`, false, nil, unsignedScript},
	{`bash -c "$X; lucid release"`, false, nil, ""},
	{`bash -c "echo \"\"; lucid release"`, false, nil, ""},
	{`bash -c "lucid\" release\""`, false, nil, ""},
	{"bash <<EOF\n\\\\lucid release\nEOF", false, nil, unsignedScript},
	{`env -S "'lucid' release"`, false, nil, unsignedScript},
	{"sh -c \"a\x00b; lucid release\"", false, nil, unsignedScript}, // the parser drops the NUL
	{`"$CMD" x; echo lucid`, false, nil, ""},
	{`curl -s https://example.com/x | sh`, false, nil, ""},
	{`lucid note "unterminated`, false, nil, unsignedParse},
	{`echo "unterminated`, false, nil, ""},
	{`$EDITOR notes.md`, false, nil, ""},
}

func TestStampReports(t *testing.T) {
	for _, tc := range stampReports {
		st := Lucid(tc.in, stampID)
		if st.Hook != tc.hook || !slices.Equal(st.Agents, tc.agents) || st.Unsigned != tc.unsigned {
			t.Errorf("Lucid(%q)\n got hook=%v agents=%q unsigned=%q\nwant hook=%v agents=%q unsigned=%q",
				tc.in, st.Hook, st.Agents, st.Unsigned, tc.hook, tc.agents, tc.unsigned)
		}
		if (st.Hook || st.Unsigned != "") && st.OnlyLucid {
			t.Errorf("Lucid(%q) is OnlyLucid, though it asks for a denial", tc.in)
		}
	}
}

// TestStampRunsAsAgent runs lines that try to run lucid as another agent,
// once as written and once stamped, with a lucid on PATH that records the
// LUCID_AGENT it was given: as written the line gets its way; stamped,
// every lucid it runs has the caller's id.
func TestStampRunsAsAgent(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	fake := "#!/bin/sh\nprintf '%s\\n' \"${LUCID_AGENT-unset}\" >> '" + log + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "lucid"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	splits := exec.Command("env", "-S", "true").Run() == nil // GNU env from coreutils 8.30
	run := func(line string) []string {
		os.Remove(log)
		cmd := exec.Command(bash, "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "LUCID_AGENT=from-env")
		cmd.Stdin = strings.NewReader("x\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("$ %s: %v\n%s", line, err, out)
		}
		b, _ := os.ReadFile(log)
		return strings.Fields(string(b))
	}
	for _, line := range []string{
		`exec env LUCID_AGENT=A lucid release`,
		`nohup env LUCID_AGENT=A lucid release 2>/dev/null`,
		`timeout 5 env LUCID_AGENT=A lucid release`,
		`command env LUCID_AGENT=A lucid release`,
		`nice -n 5 env LUCID_AGENT=A lucid release`,
		`time env LUCID_AGENT=A lucid release 2>/dev/null`,
		`'lucid' release; \lucid release; "lucid" release; l'uc'id release`,
		`LUCID_AGENT=A; export LUCID_AGENT; lucid release`,
		`>/dev/null LUCID_AGENT=A lucid release`,
		`env -S 'LUCID_AGENT=A lucid release'`,
		`env --split-string="nohup env LUCID_AGENT=A lucid release" 2>/dev/null`,
		`env -S 'bash -c lucid'`,
		`bash -c -- 'LUCID_AGENT=A lucid release'`,
		`env LUCID_AGENT=A sh -c 'lucid release'`,
		`bash -c lucid`,
		`bash -c "bash -c 'LUCID_AGENT=A lucid x'"`,
		"bash <<'EOF'\nLUCID_AGENT=A lucid release\nEOF",
		"bash <<EOF\nlucid note \\$HOME\nEOF",
		"bash <<< 'LUCID_AGENT=A lucid release'",
		`echo x | xargs -I{} env LUCID_AGENT=A lucid note {}`,
		`find . -maxdepth 0 -exec env LUCID_AGENT=A lucid note {} \;`,
		`setsid -w env LUCID_AGENT=A lucid release`,
		`f() { LUCID_AGENT=A command lucid "$@"; }; f release`,
	} {
		if strings.Contains(line, "env -S") || strings.Contains(line, "--split-string") {
			if !splits {
				continue
			}
		}
		if strings.HasPrefix(line, "setsid") {
			if _, err := exec.LookPath("setsid"); err != nil {
				continue
			}
		}
		st := Lucid(line, stampID)
		as := run(line)
		if len(as) == 0 || !slices.ContainsFunc(as, func(a string) bool { return a != stampID }) {
			t.Fatalf("$ %s runs lucid as %q: not a test of the stamp", line, as)
		}
		got := run(st.Command)
		if len(got) != len(as) || slices.ContainsFunc(got, func(a string) bool { return a != stampID }) {
			t.Errorf("$ %s\nstamped $ %s\nruns lucid as %q, want %d times %s", line, st.Command, got, len(as), stampID)
		}
	}
}

func FuzzLucid(f *testing.F) {
	for _, s := range []string{`lucid fact x`, `bash -c 'lucid x'`, `a | lucid b && (lucid c)`, `sh -c "lucid"`,
		`curl -s URL | sh`, "bash <<'EOF'\nlucid release\nEOF", `sh`, `bash -c`,
		`exec nohup timeout 5 command env LUCID_AGENT=A lucid release`, `env -S'LUCID_AGENT=A lucid x'`,
		`bash -c -- "sh -c 'lucid x'"`, `"$(command -v lucid)" release`, `find . -exec lucid {} +`,
		"sh +c \"00\x000&lucid \"", "!"} {
		f.Add(s)
	}
	for _, tc := range stampCases {
		f.Add(tc.in)
	}
	for _, tc := range stampReports {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		st := Lucid(cmd, "id")
		if !st.Found && st.Command != cmd {
			t.Fatalf("changed a command without lucid: %q -> %q", cmd, st.Command)
		}
		if len(st.Command) < len(cmd) {
			t.Fatalf("stamping removed bytes: %q -> %q", cmd, st.Command)
		}
		if st.Unsigned == "" {
			checkSigned(t, cmd, st.Command)
		}
	})
}

// checkSigned reads the stamped line as Lucid reads a line and
// checks that each word that runs lucid has the stamp for "id" right
// before it: where the word is a command's name or env's operand, the
// assignment, otherwise env and the assignment.
func checkSigned(t *testing.T, line, stamped string) {
	t.Helper()
	f := cmdline.Parse(stamped)
	switch {
	case f == nil && stamped != line:
		t.Fatalf("stamping broke the line: %q -> %q", line, stamped)
	case f == nil:
		return
	}
	s := &stamper{agent: "other", only: true}
	s.saw = func(fr *frame, a cmdline.Arg, via string) {
		want := "LUCID_AGENT=id"
		if via != "" && via != "env" {
			want = "env " + want
		}
		var before string
		if a.Part {
			before = cmdline.Unquote(a.Word, nil).Text[:a.At]
		} else {
			before = fr.text[:a.Word.Pos().Offset()]
		}
		if !strings.HasSuffix(strings.TrimRight(before, " \t"), want) {
			t.Fatalf("%q stamped as %q: lucid at %d of %q runs without the stamp right before it", line, stamped, a.Pos, fr.text)
		}
	}
	s.walk(f, &frame{text: stamped})
}

func BenchmarkLucid(b *testing.B) {
	cmd := `cd src && go test ./... 2>&1 | tail -20 && lucid fact "tests pass" -e go.mod`
	for i := 0; i < b.N; i++ {
		Lucid(cmd, "30df32ba-0d45-4195-af71-803394f51561")
	}
}

// TestStampReportsIdentity: a line that sets or removes a variable by
// which an agent's shell names its agent is reported, however it does,
// so that no lucid command of it passes for another agent's or a
// person's where the shell alone signs it.
func TestStampReportsIdentity(t *testing.T) {
	ids := []string{"SHELL_AGENT_ID", "SHELL_MARK"}
	for _, tc := range []struct {
		in  string
		env []string
	}{
		{`SHELL_AGENT_ID=other lucid release`, []string{"SHELL_AGENT_ID"}},
		{`env SHELL_AGENT_ID=other lucid fact x`, []string{"SHELL_AGENT_ID"}},
		{`export SHELL_AGENT_ID=other; lucid release`, []string{"SHELL_AGENT_ID"}},
		{`declare -x SHELL_AGENT_ID=o && lucid release`, []string{"SHELL_AGENT_ID"}},
		{`builtin export SHELL_AGENT_ID=o; lucid release`, []string{"SHELL_AGENT_ID"}},
		{`unset SHELL_MARK; lucid release`, []string{"SHELL_MARK"}},
		{`export -n SHELL_MARK; lucid release`, []string{"SHELL_MARK"}},
		{`env -u SHELL_MARK lucid release`, []string{"SHELL_MARK"}},
		{`env --unset=SHELL_MARK lucid release`, []string{"SHELL_MARK"}},
		{`read SHELL_AGENT_ID < id; lucid release`, []string{"SHELL_AGENT_ID"}},
		{`: "${SHELL_AGENT_ID:=o}"; lucid release`, []string{"SHELL_AGENT_ID"}},
		{`for SHELL_AGENT_ID in a b; do lucid release; done`, []string{"SHELL_AGENT_ID", "SHELL_AGENT_ID"}},
		{`SHELL_AGENT_ID=o bash r.sh`, []string{"SHELL_AGENT_ID"}},
		{`bash -c 'SHELL_MARK= lucid release'`, []string{"SHELL_MARK"}},
		{`sudo SHELL_AGENT_ID=o lucid release`, []string{"SHELL_AGENT_ID"}},
		{`echo $SHELL_AGENT_ID; lucid fact x`, nil},
		{`OTHER_ID=x lucid fact x`, nil},
		{`unset OTHER; lucid fact x`, nil},
	} {
		st := Lucid(tc.in, stampID, ids...)
		if !slices.Equal(st.Env, tc.env) {
			t.Errorf("Lucid(%q).Env = %q, want %q", tc.in, st.Env, tc.env)
		}
		if len(st.Env) > 0 && st.OnlyLucid {
			t.Errorf("Lucid(%q) is OnlyLucid, though it sets %s", tc.in, st.Env[0])
		}
	}
}

// A lucid handed to a program lucid does not know how to sign through
// (a wrapper, a string it runs as a command) is unsigned, and so refused in
// an agent's shell; a word that only names lucid is not.
func TestStampUnknownRunners(t *testing.T) {
	for _, tc := range []struct {
		in       string
		unsigned bool
	}{
		{`flock /tmp/l env -i PATH=$PATH lucid release --owner A`, true},
		{`flock /tmp/l lucid release`, true},
		{`flock -c 'lucid release --owner A' /tmp/l`, true},
		{`taskset -c 0 lucid web`, true},
		{`script -qec 'env -i PATH=$PATH lucid release --owner A' /dev/null`, true},
		{`git -c alias.x='!lucid web' x`, true},
		{`unshare -r lucid web`, true},
		{`strace -f -o /dev/null lucid hook SessionEnd`, true},
		{`watch 'lucid claims'`, true},
		{`watch -n 1 lucid claims`, true},
		{`su -c 'lucid release --owner A' me`, true},
		{`prlimit --nofile=10 /usr/local/bin/lucid tell A hi`, true},
		{"make -f - <<'EOF'\nx:\n\tlucid release --owner A\nEOF", true},
		{`exec -c lucid web`, true},
		{`exec -c /tmp/lv web`, true},
		// What only names lucid.
		{`grep -rn lucid src`, false},
		{`grep -rn "lucid release" .`, false},
		{`git commit -m "lucid web: the page names the port"`, false},
		{`git log --grep lucid`, false},
		{`go test ./cmd/lucid`, false},
		{`rg -l 'lucid web' docs`, false},
		{`echo lucid release`, false},
	} {
		st := Lucid(tc.in, "id")
		if got := st.Unsigned != ""; got != tc.unsigned {
			t.Errorf("%q: unsigned %q, want unsigned %v", tc.in, st.Unsigned, tc.unsigned)
		}
	}
}

// TestStampHugeCommand feeds the stamp a 20 MiB command, the size of
// payload a hook can receive: it must answer at once, and say it did not
// read it. The analysis, the hook's other reading, is held to the same in
// TestShellHugeCommand.
func TestStampHugeCommand(t *testing.T) {
	// How long it takes is make bench's (the payloads section).
	huge := "cat > big.json <<'EOF'\n" + strings.Repeat(`{"k": "lucid fact x"},`+"\n", 20<<20/22) + "EOF\n"
	st := Lucid(huge, "id")
	if st.Unsigned != unsignedBytes || st.Command != huge {
		t.Errorf("Lucid of %d bytes: unsigned %q, command changed %v; want %q, unchanged", len(huge), st.Unsigned, st.Command != huge, unsignedBytes)
	}
	// Without lucid in it, there is nothing to sign.
	plain := strings.ReplaceAll(huge, "lucid", "other")
	if st := Lucid(plain, "id"); st.Unsigned != "" || st.Found {
		t.Errorf("Lucid of %d bytes that never name lucid: %+v, want nothing to sign", len(plain), st.Unsigned)
	}
}
