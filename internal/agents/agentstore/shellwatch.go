package agentstore

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// ShellWatch is what a hook noted of the files that other agents' claims
// cover, before an agent's shell command ran, for a client that keeps no
// record of what a command changed (Codex CLI, Gemini CLI): each file's
// size and modification time, and when they were read. The hook after the
// command compares.
type ShellWatch struct {
	At    int64                `json:"at"` // Unix ns
	Files map[string]FileStamp `json:"files"`
}

// FileStamp is a file's size and modification time.
type FileStamp struct {
	Size  int64 `json:"size"`
	MTime int64 `json:"mtime_ns"`
}

// StampFile reads path's stamp; ok is false when it is not a regular file.
func StampFile(path string) (FileStamp, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return FileStamp{}, false
	}
	return FileStamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, true
}

// shellWatchPath is the watch of an agent's shell command, in the work
// tree's own git dir: one file per agent.
func shellWatchPath(r *gitstore.Repo, agent string) string {
	return filepath.Join(r.GitDir, "lucid", "shell", hex.EncodeToString([]byte(agent))+".json")
}

// SaveShellWatch keeps w for agent, in place of any it had.
func SaveShellWatch(r *gitstore.Repo, agent string, w ShellWatch) error {
	b, err := json.Marshal(w)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(shellWatchPath(r, agent)), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(shellWatchPath(r, agent), b, 0o644)
}

// DropShellWatch removes agent's watch, if it has one.
func DropShellWatch(r *gitstore.Repo, agent string) { os.Remove(shellWatchPath(r, agent)) }

// TakeShellWatch returns agent's watch and removes it; ok is false when
// there is none, or it is over an hour old (its command is long gone).
func TakeShellWatch(r *gitstore.Repo, agent string) (ShellWatch, bool, error) {
	path := shellWatchPath(r, agent)
	b, err := gitstore.ReadFileIfExists(path, gitstore.MaxClaims)
	if err != nil || b == nil {
		return ShellWatch{}, false, err
	}
	os.Remove(path)
	var w ShellWatch
	if err := json.Unmarshal(b, &w); err != nil {
		return ShellWatch{}, false, errors.New(path + " is not a shell watch: " + err.Error())
	}
	if time.Since(time.Unix(0, w.At)) > time.Hour {
		return ShellWatch{}, false, nil
	}
	return w, true, nil
}
