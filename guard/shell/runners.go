package shell

import (
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
	"github.com/lucid-dev/lucid/internal/jsonread"
	"mvdan.cc/sh/v3/syntax"
)

// Package managers run two kinds of thing: a tool from the packages
// (npx, pnpm exec, uvx...), read as that command; and a script of
// package.json (npm run NAME), read as the line sh runs in the package's
// folder, where the names in node_modules/.bin are plain commands.

// pkgScripts is the "scripts" of the package.json in the folder dir,
// nil when there is none or it cannot be read (too large, not JSON).
// Each file is read once per analysis.
func (w *walker) pkgScripts(dir string) map[string]string {
	if s, ok := w.cache().packages[dir]; ok {
		return s
	}
	var scripts map[string]string
	if text, ok := w.readConfig(dir + "/package.json"); ok {
		scripts = map[string]string{}
		err := jsonread.Object([]byte(text), func(key string, value []byte) error {
			if key != "scripts" || len(value) == 0 || value[0] != '{' {
				return nil
			}
			return jsonread.Object(value, func(name string, v []byte) error {
				if s, err := jsonread.String(v); err == nil {
					scripts[name] = s
				}
				return nil
			})
		})
		if err != nil {
			scripts = nil
		}
	}
	w.files.packages[dir] = scripts
	return scripts
}

// pkgDir is the folder of the package a package manager acts on: the
// nearest one above the shell's directory that holds a package.json.
func (w *walker) pkgDir(st *shState) (string, bool) {
	dir, _, ok := w.upward(st.dir, "package.json")
	return dir, ok
}

// runScript reads the script name of the package.json in dir, with args
// appended as the package manager quotes them, as sh -c runs it in dir;
// with prePost, preNAME before it and postNAME after it too (npm and
// yarn 1 run them; lucid reads them for every manager, to miss none). It
// reports whether the package has the script.
func (w *walker) runScript(dir, name string, args []cmdline.Arg, prePost bool, st *shState, pos uint) bool {
	scripts := w.pkgScripts(dir)
	text, ok := scripts[name]
	if !ok {
		return false
	}
	in := st.clone()
	in.dir, in.alt = dir, nil
	if pre, ok := scripts["pre"+name]; ok && prePost {
		w.script(pre, in, pos)
	}
	w.script(text+scriptArgs(args), in, pos)
	if post, ok := scripts["post"+name]; ok && prePost {
		w.script(post, in, pos)
	}
	return true
}

// scriptArgs is args as a package manager appends them to a script's
// line: each quoted for sh; one not known stays not known.
func scriptArgs(args []cmdline.Arg) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteByte(' ')
		s, ok := a.Lit()
		switch {
		case !ok:
			b.WriteString(cmdline.Unknown)
		case s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@%+,") == "":
			b.WriteString(s)
		default:
			b.WriteString("'" + strings.ReplaceAll(s, "'", `'\''`) + "'")
		}
	}
	return b.String()
}

// joinWords is args joined by blanks into one shell line, as pnpm exec
// -c runs them; a word not known stays not known.
func joinWords(args []cmdline.Arg) string {
	words := make([]string, len(args))
	for i, a := range args {
		if s, ok := a.Lit(); ok {
			words[i] = s
		} else {
			words[i] = cmdline.Unknown
		}
	}
	return strings.Join(words, " ")
}

// runTool runs inner, a tool a package manager starts (its name as
// cmdline.NPXName reads a package spec), in st.
func (w *walker) runTool(inner []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	if len(inner) == 0 {
		return
	}
	inner = slices.Clone(inner)
	inner[0].Text = cmdline.NPXName(inner[0].Text)
	w.runKnown(inner, redirs, st)
}

// npm reads npm run NAME (run-script, and test, start, stop, restart):
// the script, its pre and post scripts, with the words after NAME and
// after -- appended; --prefix DIR or -w DIR (a workspace's folder) names
// the package. npm exec (npm x) runs a tool, -c its shell line. Any
// other npm command (install, ci...) is not read.
func (w *walker) npm(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	spec := cmdline.Spec{Args: "wcp", Long: []string{"prefix", "workspace", "loglevel", "script-shell", "userconfig",
		"cache", "registry", "call", "package", "include", "omit", "tag", "otp", "location"}}
	o := cmdline.ParseOpts(args, spec)
	if o.Informational() || o.Has("workspaces", "ws") || len(o.Ops) == 0 {
		return
	}
	sub, rest := o.Ops[0].Text, o.Ops[1:] // the words after -- among them
	var dirs []string
	if p, ok := o.Get("prefix"); ok {
		if d, ok := st.path(p); ok {
			dirs = append(dirs, d)
		}
	} else if d, ok := w.pkgDir(st); ok {
		dirs = append(dirs, d)
	}
	for _, f := range o.Flags {
		if f.Has && (f.Name == "w" || f.Name == "workspace") {
			if d, ok := st.path(f.Val); ok && w.kind(d+"/package.json") == realpath.File {
				dirs = append(dirs[:0:0], d)
			} else {
				return // a workspace by its package's name: not read
			}
		}
	}
	pos := posOf(args)
	switch sub {
	case "run", "run-script", "rum", "urn":
		if len(rest) == 0 {
			return
		}
		sub, rest = rest[0].Text, rest[1:]
	case "test", "t", "tst":
		sub = "test"
	case "start", "stop":
	case "restart":
		for _, d := range dirs {
			if !w.runScript(d, "restart", rest, true, st, pos) {
				w.runScript(d, "stop", rest, true, st, pos)
				w.runScript(d, "start", rest, true, st, pos)
			}
		}
		return
	case "exec", "x":
		if c, ok := o.Get("c", "call"); ok {
			w.script(c.Text, st, c.Pos)
			return
		}
		w.runTool(rest, redirs, st)
		return
	default:
		return
	}
	for _, d := range dirs {
		w.runScript(d, sub, rest, true, st, pos)
	}
}

// pnpmBuiltin reports whether pnpm (or yarn, or bun: their commands
// overlap) has a command of its own by that name, which no script
// shadows.
func pnpmBuiltin(name string) bool {
	switch name {
	case "add", "install", "i", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "link", "ln",
		"unlink", "import", "rebuild", "rb", "prune", "fetch", "install-test", "it", "patch", "patch-commit",
		"patch-remove", "audit", "list", "ls", "outdated", "why", "licenses", "create", "publish", "pack",
		"store", "root", "bin", "setup", "init", "deploy", "env", "config", "c", "cat-file", "cat-index",
		"find-hash", "help", "server", "doctor", "recursive", "multi", "m", "self-update", "dedupe", "ci",
		"info", "login", "logout", "npm", "owner", "policies", "tag", "team", "unplug", "upgrade-interactive",
		"version", "workspace", "workspaces", "dlx", "exec", "node", "constraints", "explain", "plugin",
		"search", "set", "stage", "sdks", "build", "a", "pm", "repl", "completions", "discord", "x",
		"autoclean", "cache", "check", "generate-lock-entry", "global", "import-meta", "lockfile", "inspect":
		return true
	}
	return false
}

// pnpm reads pnpm run NAME and pnpm NAME (a script, or else the tool by
// that name), pnpm test and start, with the words after NAME appended;
// pnpm exec and dlx run a tool (-c: the words as one shell line). -C DIR
// moves it; -w runs at the workspace's top (pnpm-workspace.yaml);
// --filter and -r pick packages lucid does not look for.
func (w *walker) pnpm(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	spec := cmdline.Spec{Args: "CF", Stop: true, Long: []string{"dir", "filter", "reporter", "loglevel",
		"workspace-concurrency", "resume-from", "package", "allow-build", "filter-prod", "test-pattern", "changed-files-ignore-pattern"}}
	o := cmdline.ParseOpts(args, spec)
	if o.Informational() || o.Has("F", "filter", "filter-prod", "r", "recursive") || len(o.Ops) == 0 {
		return
	}
	if d, ok := o.Get("C", "dir"); ok {
		st = chdir(st, d)
	}
	if o.Has("w", "workspace-root") {
		d, _, ok := w.upward(st.dir, "pnpm-workspace.yaml")
		if !ok {
			return
		}
		st = st.clone()
		st.dir, st.alt = d, nil
	}
	sub, rest := o.Ops[0].Text, o.Ops[1:]
	switch sub {
	case "exec", "dlx":
		e := cmdline.ParseOpts(rest, cmdline.Spec{Stop: true, Long: []string{"package", "allow-build", "resume-from", "reporter"}})
		if e.Has("r", "recursive") {
			return
		}
		inner := e.Ops
		if e.Has("c", "shell-mode") {
			w.script(joinWords(inner), st, posOf(rest))
			return
		}
		w.runTool(inner, redirs, st)
		return
	case "run", "run-script":
		if len(rest) == 0 {
			return
		}
		sub, rest = rest[0].Text, rest[1:]
	case "test", "t", "tst":
		sub = "test"
	case "start":
	default:
		if pnpmBuiltin(sub) {
			return
		}
	}
	w.scriptOrTool(sub, rest, redirs, st, posOf(args), o.Ops[0].Text != "run" && o.Ops[0].Text != "run-script")
}

// scriptOrTool reads the script name of the nearest package, with args;
// where there is none and orTool is set, the tool by that name.
func (w *walker) scriptOrTool(name string, args []cmdline.Arg, redirs []*syntax.Redirect, st *shState, pos uint, orTool bool) {
	if len(args) > 0 && args[0].Is("--") {
		args = args[1:]
	}
	if d, ok := w.pkgDir(st); ok && w.runScript(d, name, args, true, st, pos) {
		return
	}
	if orTool {
		w.runTool(append([]cmdline.Arg{{Text: name, Pos: pos}}, args...), redirs, st)
	}
}

// yarn reads yarn run NAME and yarn NAME (a script, or else the tool by
// that name), yarn test and start; yarn dlx and yarn exec run a tool.
// --cwd DIR moves it; yarn workspace and workspaces pick packages lucid
// does not look for.
func (w *walker) yarn(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Stop: true, Long: []string{"cwd", "modules-folder", "cache-folder", "mutex", "network-timeout"}})
	if o.Informational() || len(o.Ops) == 0 {
		return
	}
	if d, ok := o.Get("cwd"); ok {
		st = chdir(st, d)
	}
	sub, rest := o.Ops[0].Text, o.Ops[1:]
	switch sub {
	case "dlx":
		e := cmdline.ParseOpts(rest, cmdline.Spec{Stop: true, Args: "p", Long: []string{"package"}})
		w.runTool(e.Ops, redirs, st)
		return
	case "exec":
		w.script(joinWords(rest), st, posOf(rest))
		return
	case "run":
		if len(rest) == 0 {
			return
		}
		sub, rest = rest[0].Text, rest[1:]
	case "test", "start":
	default:
		if pnpmBuiltin(sub) {
			return
		}
	}
	w.scriptOrTool(sub, rest, redirs, st, posOf(args), true)
}

// bun reads bun run NAME and bun NAME (a script, or else the tool by that
// name; a file such as x.ts is a script file, not read); bun x and bunx
// run a tool. bun test is bun's own test runner. --cwd DIR moves it.
func (w *walker) bun(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Stop: true, Args: "r", Long: []string{"cwd", "filter", "elide-lines", "shell",
		"env-file", "preload", "config", "tsconfig-override", "define", "loader", "port", "conditions", "main-fields"}})
	if o.Informational() || o.Has("filter") || len(o.Ops) == 0 {
		return
	}
	if d, ok := o.Get("cwd"); ok {
		st = chdir(st, d)
	}
	sub, rest := o.Ops[0].Text, o.Ops[1:]
	switch sub {
	case "x":
		w.bunx(rest, redirs, st)
		return
	case "run":
		if len(rest) == 0 {
			return
		}
		sub, rest = rest[0].Text, rest[1:]
	default:
		if pnpmBuiltin(sub) || sub == "test" {
			return
		}
	}
	w.scriptOrTool(sub, rest, redirs, st, posOf(args), !strings.ContainsAny(sub, "./"))
}

// bunx runs the tool it is given (--bun, -p PKG aside).
func (w *walker) bunx(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Stop: true, Args: "p", Long: []string{"package"}})
	w.runTool(o.Ops, redirs, st)
}

// uv reads uv run CMD (-m MODULE: python -m MODULE; --directory DIR
// moves it), uv tool run and uvx TOOL, and uv format, which runs ruff
// format on the project (the nearest pyproject.toml above).
func (w *walker) uv(name string, args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	spec := cmdline.Spec{Stop: true, Args: "pPiCfw", Long: []string{"with", "with-editable", "with-requirements", "python",
		"project", "directory", "package", "extra", "group", "only-group", "no-group", "env-file", "index",
		"default-index", "index-url", "extra-index-url", "find-links", "index-strategy", "keyring-provider",
		"resolution", "prerelease", "exclude-newer", "link-mode", "config-setting", "python-preference",
		"cache-dir", "color", "config-file", "from", "refresh-package", "reinstall-package", "upgrade-package",
		"no-binary-package", "no-build-package", "allow-insecure-host", "python-platform", "max-recursion"}}
	if name == "uvx" {
		args = append([]cmdline.Arg{{Text: "tool"}, {Text: "run"}}, args...)
	}
	o := cmdline.ParseOpts(args, spec)
	if d, ok := o.Get("directory"); ok {
		st = chdir(st, d)
	}
	if o.Informational() || len(o.Ops) == 0 {
		return
	}
	sub, rest := o.Ops[0].Text, o.Ops[1:]
	if sub == "tool" && len(rest) > 0 && rest[0].Is("run") {
		sub, rest = "tool run", rest[1:]
	}
	switch sub {
	case "run", "tool run":
		r := cmdline.ParseOpts(rest, spec)
		if d, ok := r.Get("directory"); ok {
			st = chdir(st, d)
		}
		inner := r.Ops
		if r.Has("m", "module") {
			inner = append([]cmdline.Arg{{Text: "python", Pos: posOf(rest)}, {Text: "-m", Pos: posOf(rest)}}, inner...)
		}
		if len(inner) > 0 && sub == "tool run" {
			inner = slices.Clone(inner)
			inner[0].Text, _, _ = strings.Cut(inner[0].Text, "==")
		}
		w.runTool(inner, redirs, st)
	case "format":
		dir, _, ok := w.upward(st.dir, "pyproject.toml")
		if !ok {
			dir = st.dir
		}
		in := st.clone()
		in.dir, in.alt = dir, nil
		f := cmdline.ParseOpts(rest, cmdline.Spec{})
		ruffArgs := []cmdline.Arg{{Text: "format", Pos: posOf(rest)}}
		if f.Has("check", "diff") {
			return
		}
		if f.Dashes >= 0 {
			ruffArgs = append(ruffArgs, f.Ops[f.Dashes:]...)
		}
		w.ruff(ruffArgs, in)
	}
}

// poetry run CMD runs CMD in the project's environment; -C DIR
// (--directory) moves it.
func (w *walker) poetry(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Stop: true, Args: "CP", Long: []string{"directory", "project"}})
	if d, ok := o.Get("C", "directory"); ok {
		st = chdir(st, d)
	}
	if len(o.Ops) > 0 && o.Ops[0].Is("run") {
		w.runTool(o.Ops[1:], redirs, st)
	}
}

// pipx run APP runs the app of that name (--spec names its package).
func (w *walker) pipx(args []cmdline.Arg, redirs []*syntax.Redirect, st *shState) {
	if len(args) == 0 || !args[0].Is("run") {
		return
	}
	o := cmdline.ParseOpts(args[1:], cmdline.Spec{Stop: true, Long: []string{"spec", "python", "pip-args", "index-url"}})
	w.runTool(o.Ops, redirs, st)
}
