package qwen

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Qwen Code reads a project's hooks only from the folder it starts in,
// only where it trusts the folder once folder trust is on, and not at all
// where disableAllHooks is set; all are read here as 0.24.4 reads them
// (its bundle, and runs of the real client).

// qwenDir is Qwen's folder of the user's: $QWEN_HOME, or ~/.qwen.
func qwenDir() string {
	if d := os.Getenv("QWEN_HOME"); d != "" {
		return d
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".qwen")
}

func trustedFolders() string {
	if p := os.Getenv("QWEN_CODE_TRUSTED_FOLDERS_PATH"); p != "" {
		return p
	}
	return filepath.Join(qwenDir(), "trustedFolders.json")
}

// systemSettings is the administrator's settings file, which overrides
// the user's and the project's.
func systemSettings() string {
	if p := os.Getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/QwenCode/settings.json"
	case "windows":
		return `C:\ProgramData\qwen-code\settings.json`
	}
	return "/etc/qwen-code/settings.json"
}

// systemDefaults is the administrator's defaults, which every other file
// overrides.
func systemDefaults() string {
	if p := os.Getenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(systemSettings()), "system-defaults.json")
}

// qwenSettings is the part of a Qwen settings file doctor reads.
type qwenSettings struct {
	Security struct {
		FolderTrust struct {
			Enabled *bool `json:"enabled"`
		} `json:"folderTrust"`
	} `json:"security"`
	DisableAllHooks *bool `json:"disableAllHooks"`
}

// setting is the value of a setting in the first of files (the
// strongest first) that sets it, and that file; "" when none does. The
// project's file, project, is read under gitstore's rules, the others as
// the user's own.
func setting(files []string, project string, get func(*qwenSettings) *bool) (value bool, where string, err error) {
	for _, path := range files {
		var s qwenSettings
		if err := installers.ReadJSONC(path, path != project, &s); err != nil {
			return false, path, err
		}
		if v := get(&s); v != nil {
			return *v, path, nil
		}
	}
	return false, "", nil
}

// checkStartFolder says where Qwen reads lucid's project hooks: only in a
// session started at the work tree's top, unless the user's settings
// register them too.
func checkStartFolder(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "qwen start folder", OK: true}
	if installers.UserSetUp(Hooks, userSettings()) {
		f.Detail = "lucid's hooks are in " + userSettings() + " too: sessions started in any folder are guarded"
		return f
	}
	f.Detail = "Qwen reads " + SettingsName + " only in a session started in " + repo.Top +
		": one started in a subfolder runs none of lucid's hooks (start qwen at the top, or run `lucid init --user --client qwen`)"
	return f
}

// checkQwenTrust says whether Qwen runs the project's hooks as far as
// trust goes: folder trust is off unless the system's or the user's
// settings turn it on, and then the deepest rule of trustedFolders.json
// that covers the folder decides (DO_NOT_TRUST where two are as deep).
func checkQwenTrust(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "qwen folder trust"}
	on, where, err := setting([]string{systemSettings(), userSettings(), systemDefaults()}, "",
		func(s *qwenSettings) *bool { return s.Security.FolderTrust.Enabled })
	if err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+where
		return f
	}
	if !on {
		f.OK, f.Detail = true, "folder trust is off: Qwen runs project hooks in every folder"
		return f
	}
	rules := map[string]string{}
	if err := installers.ReadJSONC(trustedFolders(), true, &rules); err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+trustedFolders()
		return f
	}
	here := installers.RealPath(repo.Top)
	best, level, depth := "", "", -1
	for path, l := range rules {
		eff := path
		switch l {
		case "TRUST_PARENT":
			eff = filepath.Dir(path)
		case "TRUST_FOLDER", "DO_NOT_TRUST":
		default:
			continue
		}
		eff = installers.RealPath(eff)
		if _, ok := gitstore.Inside(eff, here); !ok {
			continue
		}
		if len(eff) > depth || len(eff) == depth && l == "DO_NOT_TRUST" {
			best, level, depth = path, l, len(eff)
		}
	}
	fix := "add " + installers.JSONKey(repo.Top) + `: "TRUST_FOLDER" to ` + trustedFolders() + " (or trust the folder when qwen asks)"
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		f.OK, f.Detail = true, trustedFolders()+" trusts it ("+installers.JSONKey(best)+": "+level+")"
	case "DO_NOT_TRUST":
		f.Detail = where + " turns folder trust on, and " + trustedFolders() + " says " + installers.JSONKey(best) + ": DO_NOT_TRUST: Qwen skips project hooks here without a word"
		f.Fix = "change that rule to TRUST_FOLDER, or " + fix
	default:
		f.Detail = where + " turns folder trust on, and no rule in " + trustedFolders() + " trusts " + repo.Top + ": Qwen skips project hooks here without a word"
		f.Fix = fix
	}
	return f
}

// checkQwenEnabled checks disableAllHooks, which stops every hook: the
// system's setting wins, then the project's, then the user's.
func checkQwenEnabled(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "qwen hooks enabled"}
	project := repo.Abs(SettingsName)
	off, where, err := setting([]string{systemSettings(), project, userSettings(), systemDefaults()}, project,
		func(s *qwenSettings) *bool { return s.DisableAllHooks })
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "fix "+where
	case off:
		f.Detail, f.Fix = where+" sets disableAllHooks: Qwen runs no hook", "remove it (or set it to false) in "+where
	default:
		f.OK, f.Detail = true, "hooks on (no disableAllHooks)"
	}
	return f
}
