package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/rogpeppe/go-internal/testscript"
)

// payloadDir holds the hook payloads exactly as Claude Code 2.1.332 sent
// them, with paths under /home/dev/repo.
var payloadDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "payloads", "claude-code-2.1.332"))

// cmdPayload is the script command
//
//	payload NAME DEST [KEY=VALUE]...
//
// which writes the recorded payload NAME (of Claude Code, or CLIENT/NAME of
// another client: codex-0.169.0/Stop.json) to DEST with /home/dev/repo moved
// to $REPO (default $WORK/repo) and each dotted KEY set to VALUE (JSON when
// it parses as JSON, else a string; @REPO in it stands for the repository).
// "KEY=" with nothing after deletes KEY; "KEY=@json" replaces KEY's value,
// as the sets before it left it, with its JSON text as a string (Copilot's
// toolArgs as GitHub's hooks reference shows it: "{\"path\":...}").
func cmdPayload(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: payload NAME DEST [KEY=VALUE]...")
	}
	name := filepath.Join(payloadDir, args[0])
	if strings.Contains(args[0], "/") { // another client's: codex-0.169.0/Stop.json
		name = filepath.Join(payloadDir, "..", args[0])
	}
	raw, err := os.ReadFile(name)
	ts.Check(err)
	repo := ts.Getenv("REPO")
	if repo == "" {
		repo = filepath.Join(ts.Getenv("WORK"), "repo")
	}
	raw = []byte(strings.ReplaceAll(string(raw), "/home/dev/repo", repo))
	var doc map[string]any
	ts.Check(json.Unmarshal(raw, &doc))
	for _, kv := range args[2:] {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("payload: %q is not KEY=VALUE", kv)
		}
		if val == "@json" {
			text, err := json.Marshal(getPath(doc, strings.Split(key, ".")))
			ts.Check(err)
			val, _ := json.Marshal(string(text))
			setPath(doc, strings.Split(key, "."), string(val))
			continue
		}
		val = strings.ReplaceAll(val, "@REPO", repo)
		setPath(doc, strings.Split(key, "."), val)
	}
	out, err := json.MarshalIndent(doc, "", " ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out, 0o644))
}

// getPath is the value at the dotted keys of doc, nil when none.
func getPath(doc map[string]any, keys []string) any {
	var v any = doc
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func setPath(doc map[string]any, keys []string, val string) {
	for _, k := range keys[:len(keys)-1] {
		next, ok := doc[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			doc[k] = next
		}
		doc = next
	}
	last := keys[len(keys)-1]
	if val == "" {
		delete(doc, last)
		return
	}
	var v any
	if json.Unmarshal([]byte(val), &v) == nil {
		doc[last] = v
	} else {
		doc[last] = val
	}
}

// cmdHookCtx is the script command
//
//	hookctx FILE
//
// which prints the additionalContext of the hook output in FILE, so that a
// script can compare it with other text.
func cmdHookCtx(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hookctx FILE")
	}
	var out struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &out))
	ts.Stdout().Write([]byte(out.Specific.AdditionalContext))
}

// cmdNotes is the script command
//
//	notes N TEXT
//
// which appends N note entries by human, with %d in TEXT replaced by 1 to
// N, to the log
// of the repository around the script's folder: what `lucid note` would
// write, without starting N processes (each a slow start under -race).
func cmdNotes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: notes N TEXT")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	repo, err := gitstore.Find(ts.MkAbs("."))
	ts.Check(err)
	for i := 1; i <= n; i++ {
		e := logformat.NewEntry(time.Now(), agentstore.AgentHuman, logformat.KindNote, strings.ReplaceAll(args[1], "%d", strconv.Itoa(i)))
		ts.Check(logstore.Append(repo.LogPath(), e))
	}
}

// cmdBackdate sets each file's time an hour back: a file that was there
// before the client running the script's hooks (the test process) started.
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: backdate FILE...")
	}
	old := time.Now().Add(-time.Hour)
	for _, f := range args {
		ts.Check(os.Chtimes(ts.MkAbs(f), old, old))
	}
}
