package installers

import (
	"os/exec"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Setup is one client's part of lucid init, lucid uninstall and lucid
// doctor: its hooks, and whatever else the client needs to run them, which
// its folder fills in. What a client leaves nil is what most do: its hooks
// registered in its settings file, and nothing more.
type Setup struct {
	// Hooks is the client's settings as the installer edits them.
	Hooks *Client
	// Write sets lucid up in the client where registering its hooks
	// (Hooks.InstallHooks) is not all (a file of lucid's own, a member the
	// client wants in a file lucid creates, a status line); Remove takes
	// away all that Write added, and nothing of the user's (else
	// Hooks.UninstallHooks).
	Write  func(repo *gitstore.Repo, opt Options) ([]setup.Change, error)
	Remove func(repo *gitstore.Repo) ([]setup.Change, error)
	// Trust has the client trust lucid's own hooks, once they are written,
	// where lucid init is asked to (Options.Trust); Untrust takes away the
	// trust lucid wrote, once the hooks are removed.
	Trust, Untrust func(repo *gitstore.Repo) ([]setup.Change, error)
	// Check is doctor's checks of the client, set up in repo: its hooks
	// (Hooks.CheckRegistered, for most) and what it needs to run them.
	Check func(repo *gitstore.Repo) []setup.Finding
	// ClientChecks are doctor's checks of the client's own settings,
	// outside the repository, which come after the repository's; nil for
	// none.
	ClientChecks func() []setup.Finding
	// DoctorFiles are the client's files in the work tree that lucid
	// reads, relative to its top, which doctor checks as it checks its
	// own.
	DoctorFiles []string
	// Advice is what lucid init says once the client is set up, "" (or a
	// nil Advice) for nothing.
	Advice func(repo *gitstore.Repo) string
	// UserSettings is the file of the user's settings of the client where
	// lucid init --user registers UserHooks (Hooks, where nil); nil for a
	// client lucid does not set up so, and NotForUser says why.
	UserSettings func() string
	UserHooks    *Client
	NotForUser   string
	// UserWrite and UserRemove, where set, are lucid init --user and
	// lucid uninstall --user of a client whose user set-up is a file of
	// lucid's own (Pi's extension, Cline's hook files) rather than hooks
	// registered in a settings file.
	UserWrite, UserRemove func() ([]setup.Change, error)
}

// Install sets lucid up in the client: Write, or its hooks registered,
// and with opt.Trust, Trust.
func (s *Setup) Install(repo *gitstore.Repo, opt Options) ([]setup.Change, error) {
	var changes []setup.Change
	var err error
	if s.Write != nil {
		changes, err = s.Write(repo, opt)
	} else {
		changes, err = s.Hooks.InstallHooks(repo)
	}
	if err != nil || !opt.Trust || s.Trust == nil {
		return changes, err
	}
	trusted, err := s.Trust(repo)
	return append(changes, trusted...), err
}

// Uninstall takes away all that Install added: Remove, or the hooks, then
// the trust. The changes made before an error are returned with it.
func (s *Setup) Uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	var err error
	if s.Remove != nil {
		changes, err = s.Remove(repo)
	} else {
		changes, err = s.Hooks.UninstallHooks(repo)
	}
	if err != nil || s.Untrust == nil {
		return changes, err
	}
	untrusted, err := s.Untrust(repo)
	if err != nil {
		return changes, err
	}
	return append(changes, untrusted...), nil
}

// User is what lucid init --user registers in the user's settings of the
// client, and where; nil and why not for a client lucid does not set up
// this way.
func (s *Setup) User() (c *Client, path, whyNot string) {
	if s.UserSettings == nil {
		return nil, "", s.NotForUser
	}
	if c = s.UserHooks; c == nil {
		c = s.Hooks
	}
	return c, s.UserSettings(), ""
}

// Options are lucid init's choices; a client takes those that are its own.
type Options struct {
	// Local registers the hooks in the personal settings file instead of
	// the shared one; StatusLine registers lucid's status line too, and
	// Force lets it replace one the user has.
	Local, StatusLine, Force bool
	// Trust has the client trust lucid's own hooks, and nothing else.
	Trust bool
}

// ClientCommand is the command registered for event of a client other
// than the default one, which `lucid hook --client id` runs. Where lucid is
// not on PATH (a teammate's clone, a machine without it) it does nothing
// and exits 0, so that the session goes on without a hook error on every
// call.
func ClientCommand(id string) func(string) string {
	return func(event string) string {
		return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook --client " + id + " " + event
	}
}

// EntryName is the name of lucid's entry for event, in the settings of a
// client that keys its hooks by name (HookName).
func EntryName(event string) string { return "lucid-" + event }

// InstallUser registers lucid's hooks of c in the user settings at path,
// keeping every byte of the user's.
func InstallUser(c *Client, path string) ([]setup.Change, error) { return c.installAt(path, path) }

// UninstallUser removes what InstallUser added; a file left empty goes.
func UninstallUser(c *Client, path string) ([]setup.Change, error) {
	s, err := c.readAt(path, path)
	if err != nil {
		return nil, err
	}
	what := ""
	if s.Unregister() {
		what = "lucid's hooks removed"
	}
	return s.Save(nil, what)
}

// UserSetUp reports whether the user settings at path register every
// hook of c.
func UserSetUp(c *Client, path string) bool {
	s, err := c.readAt(path, path)
	return err == nil && len(s.registered()) == len(c.Events)
}

// CheckLucidOnPath checks that the hooks of a client (its name on the
// command line, its title) find lucid: they run with the PATH the client
// starts with, this shell's when it starts here, and with no lucid there
// every hook does nothing (the registered command exits 0 without it).
func CheckLucidOnPath(id, title string) setup.Finding {
	f := setup.Finding{Check: id + " finds lucid"}
	p, err := exec.LookPath("lucid")
	if err != nil {
		f.Detail = title + "'s hooks run `command -v lucid || exit 0`: with no lucid on the PATH " + id + " starts with, every hook does nothing"
		f.Fix = "install lucid into a folder on PATH (make install), then start " + id + " again from that shell"
		return f
	}
	f.OK, f.Detail = true, p+" on the PATH "+id+" and its hooks start with"
	return f
}

// JoinWhat joins two descriptions of a change, either of which may be "".
func JoinWhat(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// PluginMissing is what lucid's plugins and extensions, which a client
// installs without lucid itself, tell the person at a session's start
// where no lucid is on PATH. It goes inside single quotes in a shell
// command line and in a JSON string: no quote, backslash or dollar.
const PluginMissing = "lucid is installed in this client as a plugin, but no lucid binary is on PATH, so its hooks do nothing: " +
	"install lucid (curl -fsSL https://github.com/lucid-dev/lucid/releases/latest/download/install.sh | sh, " +
	"or npm install -g @lucid-dev/lucid) and start a new session."

// MissingCommand prints PluginMissing as a hook's systemMessage, which
// Claude Code and Gemini CLI show the person and not the model, where no
// lucid is on PATH, and exits 0 there; elsewhere it does nothing.
const MissingCommand = `command -v lucid >/dev/null 2>&1 || { echo '{"systemMessage":"` + PluginMissing + `"}'; exit 0; }`
