package gemini

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Gemini CLI runs project hooks only in a trusted workspace, and not at
// all where hooksConfig says no; both are read here as 0.61.0 reads them
// (packages/core/src/utils/trust.ts in its bundle, and the findings of
// e2e TestGeminiHookContract).

// geminiHome is the folder that holds Gemini's .gemini/: $GEMINI_CLI_HOME,
// or the home folder.
func geminiHome() string {
	if h := os.Getenv("GEMINI_CLI_HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func geminiUserSettings() string { return filepath.Join(geminiHome(), ".gemini", "settings.json") }

func geminiTrustedFolders() string {
	if p := os.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); p != "" {
		return p
	}
	return filepath.Join(geminiHome(), ".gemini", "trustedFolders.json")
}

// geminiSettings is the part of a Gemini settings file doctor reads.
type geminiSettings struct {
	Security struct {
		FolderTrust struct {
			Enabled *bool `json:"enabled"`
		} `json:"folderTrust"`
	} `json:"security"`
	HooksConfig struct {
		Enabled  *bool    `json:"enabled"`
		Disabled []string `json:"disabled"`
	} `json:"hooksConfig"`
}

// checkGeminiTrust says whether Gemini trusts the workspace, in the order
// Gemini decides it: the environment, security.folderTrust.enabled, then
// the longest matching rule of trustedFolders.json.
func checkGeminiTrust(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "gemini workspace trust"}
	fix := "start gemini in " + repo.Top + " and trust the folder when it asks, or add " + installers.JSONKey(repo.Top) + `: "TRUST_FOLDER" to ` + geminiTrustedFolders()
	switch {
	case os.Getenv("GEMINI_RESTRICTED_MODE") == "true":
		f.Detail, f.Fix = "GEMINI_RESTRICTED_MODE=true: Gemini trusts no workspace, and runs no project hook", "unset GEMINI_RESTRICTED_MODE where gemini starts"
		return f
	case os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "false":
		f.Detail, f.Fix = "GEMINI_CLI_TRUST_WORKSPACE=false: Gemini runs no project hook", "unset GEMINI_CLI_TRUST_WORKSPACE (or set it to true) where gemini starts"
		return f
	case os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true":
		f.OK, f.Detail = true, "GEMINI_CLI_TRUST_WORKSPACE=true in this environment"
		return f
	}
	var user geminiSettings
	if err := installers.ReadJSONC(geminiUserSettings(), true, &user); err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+geminiUserSettings()
		return f
	}
	if e := user.Security.FolderTrust.Enabled; e != nil && !*e {
		f.OK, f.Detail = true, geminiUserSettings()+" turns folder trust off: every workspace is trusted"
		return f
	}
	rules := map[string]string{}
	if err := installers.ReadJSONC(geminiTrustedFolders(), true, &rules); err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+geminiTrustedFolders()
		return f
	}
	here := installers.RealPath(repo.Top)
	best, level := "", ""
	for path, l := range rules {
		eff := path
		if l == "TRUST_PARENT" {
			eff = filepath.Dir(path)
		}
		if _, ok := gitstore.Inside(installers.RealPath(eff), here); ok && len(path) > len(best) {
			best, level = path, l
		}
	}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		f.OK, f.Detail = true, geminiTrustedFolders()+" trusts it ("+installers.JSONKey(best)+": "+level+")"
	case "DO_NOT_TRUST":
		f.Detail = geminiTrustedFolders() + " says " + installers.JSONKey(best) + ": DO_NOT_TRUST: Gemini runs no project hook here"
		f.Fix = "change that rule to TRUST_FOLDER (or trust the folder in gemini's /permissions)"
	default:
		f.Detail = "no rule in " + geminiTrustedFolders() + " trusts " + repo.Top + ": Gemini skips project hooks here without a word"
		f.Fix = fix
	}
	return f
}

// checkGeminiEnabled checks hooksConfig in the user's and the project's
// settings: enabled false stops every hook (the project's setting wins),
// and a name in disabled (in either) stops that one.
func checkGeminiEnabled(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "gemini hooks enabled"}
	enabled, where := true, ""
	var off []string
	for i, path := range []string{geminiUserSettings(), repo.Abs(SettingsName)} {
		var s geminiSettings
		if err := installers.ReadJSONC(path, i == 0, &s); err != nil {
			f.Detail, f.Fix = err.Error(), "fix "+path
			return f
		}
		if e := s.HooksConfig.Enabled; e != nil {
			enabled, where = *e, path
		}
		for _, ev := range Hooks.Events {
			if name := Hooks.HookName(ev.Name); slices.Contains(s.HooksConfig.Disabled, name) && !slices.Contains(off, name) {
				off = append(off, name)
				where = path
			}
		}
	}
	switch {
	case !enabled:
		f.Detail, f.Fix = where+" sets hooksConfig.enabled to false: Gemini runs no hook", "remove it (or set it to true) in "+where
	case len(off) > 0:
		f.Detail, f.Fix = "hooksConfig.disabled in "+where+" names "+strings.Join(off, ", ")+": Gemini skips them", "take them out of hooksConfig.disabled (gemini's /hooks enable NAME)"
	default:
		f.OK, f.Detail = true, "hooks on; none of lucid's in hooksConfig.disabled"
	}
	return f
}
