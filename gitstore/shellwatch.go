package gitstore

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
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

// shellWatchPath is the watch of one tool call (key: the agent and the
// call's id), in the work tree's own git dir.
func (r *Repo) shellWatchPath(key string) string {
	return filepath.Join(r.GitDir, "lucid", "shell", hex.EncodeToString([]byte(key))+".json")
}

// SaveShellWatch keeps w for the call key.
func (r *Repo) SaveShellWatch(key string, w ShellWatch) error {
	b, err := json.Marshal(w)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.shellWatchPath(key)), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(r.shellWatchPath(key), b, 0o644)
}

// TakeShellWatch returns the watch of the call key and removes it; ok is
// false when there is none. A watch older than an hour is left for gc:
// its command is long gone.
func (r *Repo) TakeShellWatch(key string) (ShellWatch, bool, error) {
	path := r.shellWatchPath(key)
	b, err := ReadFileIfExists(path, MaxClaims)
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
