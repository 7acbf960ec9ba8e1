package shell

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// Formatters and fixers rewrite the files they are given in place, and
// under a folder the files of the kinds they format: what each writes is
// read from its own arguments, as its own rules read them. Caches they
// keep for themselves (.eslintcache, .ruff_cache) are not counted.

// The globs of the files a formatter rewrites under a folder it is given.
const (
	globGo     = "**/*.go"
	globPython = "**/*.{py,pyi,ipynb}"   // black, ruff
	globIsort  = "**/*.{py,pyi,pyx,pxd}" // isort's supported extensions
	globRust   = "**/*.rs"
	// globAny is every file under the folder: a tool whose kinds of file
	// are open-ended (eslint and prettier take more through their
	// configs and plugins, shfmt any file with a shell's #! line).
	globAny = "**"
)

// fmtWrite records that the formatter by rewrites what the operand a
// names: the file; under a folder (one on disk, ".", or a name ending in
// "/"), the files that glob matches; with toolGlobs, a pattern the tool
// matches itself (prettier 'src/**/*.ts') names the paths it matches.
func (w *walker) fmtWrite(st *shState, a cmdline.Arg, glob, by string, toolGlobs bool) {
	if a.Under != "" { // what find hands to xargs or -exec
		w.formats(st, a.Text, a.Under, by, a.Pos)
		return
	}
	s, ok := a.Lit()
	if !ok || s == "" || s == "-" {
		return
	}
	p, ok := st.path(a)
	if !ok {
		return
	}
	kind := w.kindAt(st, p)
	switch {
	case kind == realpath.Dir || strings.HasSuffix(s, "/") || s == "." || s == ".." || strings.HasSuffix(s, "/.") || strings.HasSuffix(s, "/.."):
		w.formats(st, filepath.Clean(p), glob, by, a.Pos)
	case kind == realpath.None && toolGlobs && toolGlob(s):
		dir, rest, ok := splitToolGlob(s)
		if !ok {
			return
		}
		d, ok := st.path(cmdline.Arg{Text: dir})
		if !ok {
			return
		}
		w.formats(st, filepath.Clean(d), rest, by, a.Pos)
	default:
		w.formatsFile(st, p, by, a.Pos)
	}
}

// formats records that by rewrites the files under the folder dir
// (absolute) that the doublestar glob matches.
func (w *walker) formats(st *shState, dir, glob, by string, pos uint) {
	base, rel := st.from(dir)
	p, _ := realpath.Resolve(w.fs, base, rel, true)
	w.record(Write{Path: p, Under: glob, By: by, Format: true}, pos)
}

// formatsFile records that by rewrites the file p (absolute) in place:
// through a symbolic link, its target.
func (w *walker) formatsFile(st *shState, p, by string, pos uint) {
	path, target := w.physical(st, p, true)
	w.record(Write{Path: path, By: by, Format: true}, pos)
	if target != "" {
		w.record(Write{Path: target, By: by, Format: true}, pos)
	}
}

// formatsOperand records that by rewrites the file a names, or what
// find hands it through xargs or -exec.
func (w *walker) formatsOperand(st *shState, a cmdline.Arg, by string) {
	if a.Under != "" {
		w.formats(st, a.Text, a.Under, by, a.Pos)
	} else if p, ok := st.path(a); ok {
		w.formatsFile(st, p, by, a.Pos)
	}
}

// toolGlob reports whether s holds a glob character that a tool taking
// patterns (prettier, eslint) matches itself.
func toolGlob(s string) bool { return strings.ContainsAny(s, "*?[{") }

// splitToolGlob splits a tool's pattern into the folder it starts in (its
// components before the first one holding a glob character, "." when
// none) and the doublestar glob of the rest. An extglob (@(a|b), !(x))
// or a pattern doublestar cannot read stands for everything under the
// folder; a .. among the globbed components is not followed (ok false).
func splitToolGlob(s string) (dir, rest string, ok bool) {
	comps := strings.Split(s, "/")
	i := slices.IndexFunc(comps, toolGlob)
	if i < 0 {
		return "", "", false
	}
	dir = strings.Join(comps[:i], "/")
	switch {
	case i == 0:
		dir = "."
	case dir == "":
		dir = "/"
	}
	tail := comps[i:]
	if slices.Contains(tail, "..") {
		return "", "", false
	}
	tail = slices.DeleteFunc(tail, func(c string) bool { return c == "" || c == "." })
	rest = strings.Join(tail, "/")
	if rest == "" || strings.ContainsAny(rest, "()|") || !doublestar.ValidatePattern(rest) {
		rest = globAny
	}
	return dir, rest, true
}

// upward is the nearest folder from dir (absolute) up to the root that
// holds a file named name, and the file's path.
func (w *walker) upward(dir, name string) (folder, file string, ok bool) {
	if dir == "" {
		return "", "", false
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		f := filepath.Join(d, name)
		if w.kind(f) == realpath.File {
			return d, f, true
		}
		if d == "/" {
			return "", "", false
		}
	}
}

// maxConfigBytes is the most lucid reads of a file that says what a
// command does (package.json, a Makefile, go.mod, a tool's config).
const maxConfigBytes = 1 << 20

// readConfig is the text of the file p, when it is a regular file of at
// most maxConfigBytes. Each file is read once per analysis.
func (w *walker) readConfig(p string) (string, bool) {
	if c, ok := w.cache().configs[p]; ok {
		return c.text, c.ok
	}
	b, more, ok := w.fs.readFile(p, maxConfigBytes)
	c := config{text: string(b), ok: ok && !more}
	if !c.ok {
		c.text = ""
	}
	w.files.configs[p] = c
	return c.text, c.ok
}

// config is a file read by readConfig.
type config struct {
	text string
	ok   bool
}

// tomlKeys is the keys set in the section of a TOML text ("" for the
// keys before any section header, "tool.black" for [tool.black]) and in
// its subsections, each with its value's text as written.
func tomlKeys(text, section string) map[string]string {
	keys := map[string]string{}
	cur := ""
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			cur = strings.TrimSpace(strings.Trim(line, "[]"))
			continue
		}
		if cur != section && !strings.HasPrefix(cur, section+".") && !(section == "" && cur == "") {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			keys[strings.Trim(strings.TrimSpace(k), `"'`)] = strings.TrimSpace(v)
		}
	}
	return keys
}

// goFmt handles go fmt and go fix: they rewrite the .go files of the
// packages named (the package in the directory when none is): a folder
// is its own files, a pattern ending in /... every .go file under its
// folder, a .go file itself, and an import path of the main module (go.mod's
// module line) its folder. go fmt -n only prints; go fix -diff too.
func (w *walker) goFmt(sub string, args []cmdline.Arg, st *shState) {
	pkgs, flags, ok := goArgs(args)
	if !ok || slices.Contains(flags, "n") || slices.Contains(flags, "diff") {
		return
	}
	by := "go " + sub
	if len(pkgs) == 0 {
		pkgs = []cmdline.Arg{{Text: "."}}
	}
	for _, a := range pkgs {
		s, ok := a.Lit()
		if !ok {
			continue
		}
		switch {
		case strings.HasSuffix(s, ".go"):
			w.formatsOperand(st, a, by)
			continue
		case !goLocal(s):
			dir, ok := w.goImportDir(st, s)
			if !ok {
				continue
			}
			s = dir
		}
		glob := "*.go"
		if i := strings.Index(s, "..."); i >= 0 {
			s, glob = s[:i], globGo // ./a/...: every .go file under ./a
			if s == "" {
				s = "."
			}
		}
		if p, ok := st.path(cmdline.Arg{Text: s}); ok {
			w.formats(st, filepath.Clean(p), glob, by, a.Pos)
		}
	}
}

// goLocal reports whether a go package argument is a folder (., ./x,
// ../x, /abs) rather than an import path.
func goLocal(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || filepath.IsAbs(s)
}

// goImportDir is the folder, absolute and with a trailing /... kept, of
// an import path in the main module (the go.mod nearest above the
// directory): all is the whole module; another module's or the standard
// library's packages are not in the work tree.
func (w *walker) goImportDir(st *shState, s string) (string, bool) {
	root, mod, ok := w.goModule(st.dir)
	if !ok {
		return "", false
	}
	switch {
	case s == "all":
		return root + "/...", true
	case s == mod:
		return root, true
	case strings.HasPrefix(s, mod+"/"):
		return root + "/" + s[len(mod)+1:], true
	case strings.HasSuffix(s, "/...") && strings.HasPrefix(mod, strings.TrimSuffix(s, "/...")):
		return root + "/...", true // a pattern above the module covers it all
	}
	return "", false
}

// goModule is the folder of the go.mod nearest above dir, and its module
// path.
func (w *walker) goModule(dir string) (root, mod string, ok bool) {
	root, file, ok := w.upward(dir, "go.mod")
	if !ok {
		return "", "", false
	}
	text, _ := w.readConfig(file)
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			mod = strings.Trim(strings.TrimSpace(rest), `"`+"`")
			break
		}
	}
	return root, mod, true
}

// goArgs splits the arguments of a go subcommand into its packages and
// the names of its flags. -C is taken by goTool.
func goArgs(args []cmdline.Arg) (pkgs []cmdline.Arg, flags []string, ok bool) {
	fl, pkgs := dashFlags(args, goValueFlag)
	for _, f := range fl {
		if f.Name == "h" || f.Name == "help" {
			return nil, nil, false
		}
		flags = append(flags, f.Name)
	}
	return pkgs, flags, true
}

// dashFlags splits args as Go's flag package and LLVM's options read
// them: -name or --name, its value after = or, for the names valued
// takes, as the next word; options and operands mix, and -- ends the
// options.
func dashFlags(args []cmdline.Arg, valued func(string) bool) (flags []cmdline.Flag, ops []cmdline.Arg) {
	for i := 0; i < len(args); i++ {
		s, lit := args[i].Lit()
		if !lit || !strings.HasPrefix(s, "-") || s == "-" {
			ops = append(ops, args[i])
			continue
		}
		if s == "--" {
			return flags, append(ops, args[i+1:]...)
		}
		trimmed := strings.TrimLeft(s, "-")
		name, val, hasVal := strings.Cut(trimmed, "=")
		f := cmdline.Flag{Name: name, Has: hasVal}
		if hasVal {
			f.Val = args[i].From(len(s) - len(val))
		} else if valued(name) && i+1 < len(args) {
			i++
			f.Val, f.Has = args[i], true
		}
		flags = append(flags, f)
	}
	return flags, ops
}

// goValueFlag reports whether the go command's flag name takes a value.
func goValueFlag(name string) bool {
	switch name {
	case "C", "mod", "modfile", "tags", "toolexec", "p", "gcflags", "ldflags", "asmflags", "gccgoflags",
		"overlay", "pgo", "pkgdir", "buildmode", "compiler", "installsuffix", "fixtool", "o", "exec",
		"coverpkg", "covermode", "go", "compat", "fmt", "require", "droprequire", "replace", "dropreplace",
		"exclude", "dropexclude", "retract", "dropretract", "module", "godebug", "dropgodebug", "tool", "droptool",
		"ignore", "dropignore", "toolchain":
		return true
	}
	return false
}

// goMod handles the go commands that rewrite the module's go.mod and
// go.sum (go mod tidy, go get, go mod edit, go mod vendor, go mod init):
// those of the module the command runs in, the go.mod nearest above it,
// or of -modfile's file.
func (w *walker) goMod(sub string, args []cmdline.Arg, st *shState) {
	if sub == "mod" {
		if len(args) == 0 {
			return
		}
		sub, args = "mod "+args[0].Text, args[1:]
	}
	by := "go " + sub
	ops, flags, ok := goArgs(args)
	if !ok {
		return
	}
	modfile := ""
	for i, a := range args {
		if name, val, has := strings.Cut(strings.TrimLeft(a.Text, "-"), "="); strings.HasPrefix(a.Text, "-") && name == "modfile" {
			if !has && i+1 < len(args) {
				val = args[i+1].Text
			}
			modfile = val
		}
	}
	switch sub {
	case "mod tidy", "get":
		if slices.Contains(flags, "diff") {
			return
		}
	case "mod edit":
		if slices.Contains(flags, "print") || slices.Contains(flags, "json") {
			return
		}
		if len(ops) > 0 {
			w.open(st, ops[0], by) // go mod edit -fmt path/go.mod
			return
		}
	case "mod init":
		if modfile == "" {
			w.open(st, cmdline.Arg{Text: "go.mod", Pos: posOf(args)}, by)
			return
		}
	case "mod vendor":
		dir := cmdline.Arg{Text: "vendor"}
		for i, a := range args {
			if a.Is("-o") && i+1 < len(args) {
				dir = args[i+1]
			} else if v, ok := strings.CutPrefix(a.Text, "-o="); ok {
				dir = cmdline.Arg{Text: v}
			}
		}
		root, _, ok := w.goModule(st.dir)
		if !ok {
			return
		}
		if s, ok := dir.Lit(); ok {
			if !filepath.IsAbs(s) {
				s = root + "/" + s
			}
			w.record(Write{Path: filepath.Clean(s), Under: globAny, By: by}, posOf(args))
		}
		return
	default:
		return
	}
	pos := posOf(args)
	if modfile != "" {
		w.open(st, cmdline.Arg{Text: modfile, Pos: pos}, by)
		w.open(st, cmdline.Arg{Text: strings.TrimSuffix(modfile, ".mod") + ".sum", Pos: pos}, by)
		return
	}
	root, _, ok := w.goModule(st.dir)
	if !ok {
		return
	}
	w.open(st, cmdline.Arg{Text: root + "/go.mod", Pos: pos}, by)
	if sub != "mod edit" {
		w.open(st, cmdline.Arg{Text: root + "/go.sum", Pos: pos}, by)
	}
}

// posOf is where the first of args lies in the source, for ordering.
func posOf(args []cmdline.Arg) uint {
	if len(args) == 0 {
		return 0
	}
	return args[0].Pos
}

// fmtOpts reads the options of a formatter with a write flag: cmdline.ParseOpts
// with spec, and whether any of the options named in write was given and
// none of those in dry.
func fmtOpts(args []cmdline.Arg, spec cmdline.Spec, write, dry []string) (cmdline.Opts, bool) {
	o := cmdline.ParseOpts(args, spec)
	if o.Informational() {
		return o, false
	}
	return o, o.Has(write...) && !o.Has(dry...)
}

// prettier --write (-w) rewrites its files, folders (any file under them
// that a language of its own or of a plugin takes) and the globs it
// matches itself. --check, --list-different alone, and stdin write none.
func (w *walker) prettier(args []cmdline.Arg, st *shState) {
	o, write := fmtOpts(args, cmdline.Spec{Exact: true, Long: []string{"config", "ignore-path", "plugin", "parser", "stdin-filepath",
		"cache-location", "cache-strategy", "log-level", "loglevel", "print-width", "tab-width", "trailing-comma",
		"arrow-parens", "end-of-line", "prose-wrap", "quote-props", "html-whitespace-sensitivity",
		"embedded-language-formatting", "object-wrap", "experimental-operator-position", "cursor-offset",
		"range-start", "range-end", "config-precedence", "plugin-search-dir", "plugin-search", "find-config-path", "file-info"}},
		[]string{"w", "write"}, []string{"stdin-filepath", "find-config-path", "file-info", "support-info"})
	if !write {
		return
	}
	for _, a := range o.Ops {
		if !strings.HasPrefix(a.Text, "!") { // !pattern ignores
			w.fmtWrite(st, a, globAny, "prettier --write", true)
		}
	}
}

// eslint --fix rewrites the files it lints: those named, every file under
// a folder (which files its config takes is open-ended), the globs it
// matches itself; with no operand, the directory (ESLint 9). -o writes
// its report, fix or not.
func (w *walker) eslint(args []cmdline.Arg, st *shState) {
	o, fix := fmtOpts(args, cmdline.Spec{Args: "cfo", Exact: true, Long: []string{"config", "ext", "global", "parser", "parser-options",
		"resolve-plugins-relative-to", "rulesdir", "plugin", "rule", "env", "ignore-path", "ignore-pattern", "format",
		"output-file", "max-warnings", "cache-location", "cache-strategy", "fix-type", "stdin-filename",
		"report-unused-disable-directives-severity", "report-unused-inline-configs", "flag", "concurrency",
		"print-config", "suppressions-location", "suppress-rule"}},
		[]string{"fix"}, []string{"fix-dry-run", "stdin", "print-config", "init", "env-info"})
	if o.Informational() || o.Has("print-config", "init", "env-info") {
		return
	}
	if f, ok := o.Get("o", "output-file"); ok {
		w.open(st, f, "eslint -o")
	}
	if !fix {
		return
	}
	ops := o.Ops
	if len(ops) == 0 {
		ops = []cmdline.Arg{{Text: ".", Pos: posOf(args)}}
	}
	for _, a := range ops {
		w.fmtWrite(st, a, globAny, "eslint --fix", true)
	}
}

// pyGlob is glob, or every file when the command line or the config a
// Python formatter reads (configs, the nearest pyproject.toml or one of
// extra above dir, with the keys of section) widens the kinds of file it
// takes: one of keys set, or widen given.
func (w *walker) pyGlob(glob, dir string, widen bool, configs []string, section string, keys ...string) string {
	if widen {
		return globAny
	}
	for _, c := range configs {
		text, ok := w.readConfig(c)
		if !ok {
			continue
		}
		sec := section
		if filepath.Base(c) != "pyproject.toml" {
			sec = ""
		}
		set := tomlKeys(text, sec)
		if strings.HasSuffix(c, ".cfg") || strings.HasSuffix(c, ".ini") {
			set = iniKeys(text)
		}
		for _, k := range keys {
			if _, ok := set[k]; ok {
				return globAny
			}
		}
	}
	return glob
}

// iniKeys is the keys an INI file (setup.cfg, tox.ini, .isort.cfg) sets,
// in any section.
func iniKeys(text string) map[string]string {
	keys := map[string]string{}
	for line := range strings.Lines(text) {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(strings.TrimSpace(line), "#") && !strings.HasPrefix(strings.TrimSpace(line), ";") {
			keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return keys
}

// pyConfigs is the config files a Python tool reads for the folder dir:
// the nearest of names above it (each name looked for in each folder,
// nearest first; pyproject.toml only where it has section), or given, the
// one named on the command line.
func (w *walker) pyConfigs(st *shState, dir string, given cmdline.Arg, hasGiven bool, section string, names ...string) []string {
	if hasGiven {
		if s, ok := given.Lit(); ok && !strings.Contains(s, "=") {
			if p, ok := st.path(cmdline.Arg{Text: s}); ok {
				return []string{filepath.Clean(p)}
			}
		}
		return nil
	}
	if dir == "" {
		return nil
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, n := range names {
			f := filepath.Join(d, n)
			if w.kind(f) != realpath.File {
				continue
			}
			if n == "pyproject.toml" {
				if text, ok := w.readConfig(f); !ok || !strings.Contains(text, "["+section+"]") && !strings.Contains(text, "["+section+".") {
					continue
				}
			}
			return []string{f}
		}
		if d == "/" {
			return nil
		}
	}
}

// black rewrites its files, and under a folder its Python files (.py,
// .pyi, .ipynb; every file with --include, or include in its config).
// --check, --diff and -c (code given inline) write nothing.
func (w *walker) black(args []cmdline.Arg, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "cltW", Exact: true, Long: []string{"code", "line-length", "target-version",
		"python-cell-magics", "include", "exclude", "extend-exclude", "force-exclude", "stdin-filename", "workers",
		"config", "required-version", "enable-unstable-feature", "line-ranges"}})
	if o.Informational() || o.Has("check", "diff", "c", "code") {
		return
	}
	cfg, hasCfg := o.Get("config")
	for _, a := range o.Ops {
		glob := globPython
		if p, ok := st.path(a); ok {
			glob = w.pyGlob(globPython, p, o.Has("include"), w.pyConfigs(st, p, cfg, hasCfg, "tool.black", "pyproject.toml"), "tool.black", "include")
		}
		w.fmtWrite(st, a, glob, "black", false)
	}
}

// ruff format rewrites its files (the directory when none is named), and
// ruff check does with --fix, --fix-only or fix = true in its config
// (unless --no-fix), or --add-noqa; --check and --diff write nothing, nor
// does check without a fix. Under a folder: .py, .pyi and .ipynb, every
// file where --extension or the config's include, extend-include or
// extension widens them. -o writes its report.
func (w *walker) ruff(args []cmdline.Arg, st *shState) {
	sub := "check"
	if len(args) > 0 {
		switch args[0].Text {
		case "format", "check":
			sub, args = args[0].Text, args[1:]
		case "rule", "config", "linter", "clean", "version", "help", "server", "analyze":
			return
		}
	}
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "o", Exact: true, Long: []string{"config", "select", "ignore", "extend-select",
		"extend-ignore", "per-file-ignores", "extend-per-file-ignores", "exclude", "extend-exclude", "fixable",
		"unfixable", "extend-fixable", "extend-unfixable", "output-format", "output-file", "target-version",
		"line-length", "cache-dir", "stdin-filename", "dummy-variable-rgx", "extension", "range", "python", "format"}})
	if o.Informational() || o.Has("diff", "watch", "show-settings", "show-files", "statistics") {
		return
	}
	if f, ok := o.Get("o", "output-file"); ok {
		w.open(st, f, "ruff -o")
	}
	if o.Has("check") && sub == "format" {
		return
	}
	ops := o.Ops
	if len(ops) == 0 {
		ops = []cmdline.Arg{{Text: ".", Pos: posOf(args)}}
	}
	cfg, hasCfg := o.Get("config")
	by := "ruff format"
	if sub == "check" {
		by = "ruff check --fix"
	}
	for _, a := range ops {
		p, ok := st.path(a)
		if !ok {
			continue
		}
		configs := w.pyConfigs(st, p, cfg, hasCfg, "tool.ruff", ".ruff.toml", "ruff.toml", "pyproject.toml")
		fix := o.Has("fix", "fix-only", "add-noqa") || !o.Has("no-fix") && w.ruffFixes(configs)
		if sub == "check" && !fix {
			continue
		}
		widen := o.Has("extension") || hasCfg && (strings.Contains(cfg.Text, "include") || strings.Contains(cfg.Text, "extension"))
		glob := w.pyGlob(globPython, p, widen, configs, "tool.ruff", "include", "extend-include", "extension")
		w.fmtWrite(st, a, glob, by, false)
	}
}

// ruffFixes reports whether one of the ruff configs sets fix = true.
func (w *walker) ruffFixes(configs []string) bool {
	for _, c := range configs {
		text, ok := w.readConfig(c)
		if !ok {
			continue
		}
		sec := "tool.ruff"
		if filepath.Base(c) != "pyproject.toml" {
			sec = ""
		}
		if v := tomlKeys(text, sec)["fix"]; strings.HasPrefix(v, "true") {
			return true
		}
	}
	return false
}

// isort rewrites its files, and under a folder .py, .pyi, .pyx and .pxd
// files (every file where --ext or the config's supported_extensions
// widens them). --check-only, --diff and --stdout write nothing.
func (w *walker) isort(args []cmdline.Arg, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Args: "abflmopsj", Exact: true, Long: []string{"add-import", "builtin", "extra-builtin", "future",
		"line-length", "line-width", "wrap-length", "multi-line", "thirdparty", "project", "known-local-folder",
		"virtual-env", "conda-env", "python-version", "py", "profile", "settings-path", "sp", "settings-file",
		"settings", "skip", "skip-glob", "sg", "extend-skip", "extend-skip-glob", "src", "src-path", "rm",
		"remove-import", "jobs", "ext", "extension", "supported-extension", "blocked-extension", "section-default",
		"sd", "lines-after-imports", "lai", "lines-between-types", "lbt", "line-ending", "le", "filename",
		"indent", "wl", "ap", "no-lines-before", "nlb", "only-sections", "formatter", "treat-comment-as-code"}})
	if o.Informational() || o.Has("c", "check-only", "check", "diff", "df", "d", "stdout", "show-config", "show-files") {
		return
	}
	sp, hasSp := o.Get("sp", "settings-path", "settings-file", "settings")
	for _, a := range o.Ops {
		glob := globIsort
		if p, ok := st.path(a); ok {
			configs := w.pyConfigs(st, p, sp, hasSp && !strings.HasSuffix(sp.Text, "/"), "tool.isort", ".isort.cfg", "pyproject.toml", "setup.cfg", "tox.ini")
			glob = w.pyGlob(globIsort, p, o.Has("ext", "extension", "supported-extension"), configs, "tool.isort", "supported_extensions", "extend_supported_extensions")
		}
		w.fmtWrite(st, a, glob, "isort", false)
	}
}

// cargo fmt rewrites the .rs files of the crate whose Cargo.toml is
// nearest above the directory (or --manifest-path's), and of the whole
// workspace (a Cargo.toml above it with [workspace]) with --all or -p,
// or where that nearest Cargo.toml is the workspace's. --check, and
// rustfmt's own --check or --emit stdout after --, write nothing.
func (w *walker) cargo(args []cmdline.Arg, st *shState) {
	i := 0
	for ; i < len(args) && (strings.HasPrefix(args[i].Text, "+") || strings.HasPrefix(args[i].Text, "-")); i++ {
		switch args[i].Text { // a +toolchain, or cargo's own options
		case "-C":
			if i+1 < len(args) {
				i++
				st = chdir(st, args[i])
			}
		case "--config", "-Z", "--color":
			i++
		}
	}
	if i >= len(args) || !args[i].Is("fmt") {
		return
	}
	o := cmdline.ParseOpts(args[i+1:], cmdline.Spec{Args: "p", Long: []string{"manifest-path", "package", "message-format"}})
	if o.Informational() || o.Has("check") {
		return
	}
	for j, a := range o.Ops {
		if o.Dashes >= 0 && j >= o.Dashes && (a.Is("--check") || a.Is("stdout") || a.Is("--emit=stdout")) {
			return
		}
	}
	dir := st.dir
	if m, ok := o.Get("manifest-path"); ok {
		p, ok := st.path(m)
		if !ok {
			return
		}
		dir = filepath.Dir(filepath.Clean(p))
	}
	crate, manifest, ok := w.upward(dir, "Cargo.toml")
	if !ok {
		return
	}
	root := crate
	text, _ := w.readConfig(manifest)
	if !strings.Contains(text, "[workspace]") {
		// A member's workspace is a Cargo.toml above it with [workspace].
		for d := filepath.Dir(crate); d != "/" && d != "."; d = filepath.Dir(d) {
			f := filepath.Join(d, "Cargo.toml")
			if t, ok := w.readConfig(f); ok && strings.Contains(t, "[workspace]") {
				if o.Has("all", "p", "package") {
					root = d
				}
				break
			}
		}
	}
	w.formats(st, root, globRust, "cargo fmt", posOf(args[i:]))
}

// rustfmt rewrites the files it is given and the out-of-line modules
// they declare (mod x; is x.rs or x/mod.rs beside or below the file, or
// anywhere #[path] says): every .rs file under the file's folder.
// --check and --emit stdout write nothing.
func (w *walker) rustfmt(args []cmdline.Arg, st *shState) {
	o := cmdline.ParseOpts(args, cmdline.Spec{Exact: true, Long: []string{"config-path", "edition", "config", "emit", "color", "print-config", "style-edition", "backup"}})
	if o.Informational() || o.Has("check", "print-config", "l", "files-with-diff") {
		return
	}
	if e, ok := o.Get("emit"); ok && !e.Is("files") {
		return
	}
	for _, a := range o.Ops {
		w.formatsOperand(st, a, "rustfmt")
		if p, ok := st.path(a); ok {
			w.formats(st, filepath.Dir(filepath.Clean(p)), globRust, "rustfmt", a.Pos)
		}
	}
}

// clangFormat -i rewrites the files it is given (it takes no folders),
// and those listed in --files=FILE when the file can be read. LLVM's
// options take one dash or two, the value after = or as the next word.
func (w *walker) clangFormat(args []cmdline.Arg, st *shState) {
	flags, files := dashFlags(args, func(name string) bool {
		switch name {
		case "style", "fallback-style", "assume-filename", "lines", "offset", "length", "cursor", "qualifier-alignment", "ferror-limit", "files":
			return true
		}
		return false
	})
	inPlace := false
	for _, f := range flags {
		switch f.Name {
		case "i":
			inPlace = true
		case "n", "dry-run", "dump-config", "help", "version", "output-replacements-xml":
			return
		case "files":
			out := w.fileOutput(f.Val, st)
			for l := range strings.Lines(out.text) {
				if l = strings.TrimSpace(l); l != "" && out.known {
					files = append(files, cmdline.Arg{Text: l, Pos: f.Val.Pos})
				}
			}
		}
	}
	if !inPlace {
		return
	}
	for _, a := range files {
		w.formatsOperand(st, a, "clang-format -i")
	}
}

// shfmt -w rewrites its files, and under a folder the shell scripts it
// finds: by their name's extension, or any file without one whose #!
// line names a shell, so every file. -f only lists them.
func (w *walker) shfmt(args []cmdline.Arg, st *shState) {
	flags, ops := dashFlags(args, func(name string) bool {
		return name == "i" || name == "indent" || name == "ln" || name == "language-dialect" || name == "filename"
	})
	write := false
	for _, f := range flags {
		switch f.Name {
		case "w", "write":
			write = !f.Has || f.Val.Is("true")
		case "f", "find", "h", "help", "version", "tojson", "to-json":
			return
		}
	}
	if !write {
		return
	}
	for _, a := range ops {
		w.fmtWrite(st, a, globAny, "shfmt -w", false)
	}
}
