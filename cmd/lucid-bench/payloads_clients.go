package main

import (
	"cmp"
	"embed"
	"encoding/json"
	"path"
	"strings"
)

// clientFiles are the payloads each client sends, by the client's name
// (testdata/clients/NAME): start.json, its session's start; tool-N.json,
// the tool-call hooks the clients section times; claims.json, where
// there is one, the shell call the claims section times for the client
// besides the default one. $SESSION and $DIR stand for the session's id
// and the work tree. A client whose payloads do not name their event
// (GitHub Copilot CLI's, lucid's opencode and Pi extensions', Cline's,
// whose hookName is its own internal name) has it in the file's name:
// tool-1.preToolUse.json. A start may take several payloads, run in the
// order of their names: where the start's digest rides the agent's first
// tool call (Cline, Crush), that call is part of the start, so that the
// timed call finds nothing new.
//
//go:embed testdata/clients
var clientFiles embed.FS

// clientPayload is one payload of a client's, filled in.
type clientPayload struct {
	event, tool string // as the payload names them
	session     string
	stdin       []byte
}

// clientPayloads returns the client's payloads whose file names begin
// with prefix, in the order of their names.
func clientPayloads(client, prefix, session, dir string) []clientPayload {
	dirName := path.Join("testdata", "clients", client)
	entries, _ := clientFiles.ReadDir(dirName)
	fill := strings.NewReplacer("$SESSION", session, "$DIR", dir)
	var out []clientPayload
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		b, err := clientFiles.ReadFile(path.Join(dirName, e.Name()))
		if err != nil {
			continue
		}
		p := clientPayload{stdin: []byte(fill.Replace(strings.TrimSpace(string(b))))}
		var names struct {
			Event        string `json:"hook_event_name"`
			CrushEvent   string `json:"event"`
			Tool         string `json:"tool_name"`
			Session      string `json:"session_id"`
			CamelTool    string `json:"toolName"`
			CamelSession string `json:"sessionId"`
			PluginTool   string `json:"tool"` // lucid's opencode plugin's
			PluginID     string `json:"sessionID"`
			ClineCall    struct {
				Name string `json:"name"`
			} `json:"tool_call"` // Cline's
			ClineResult struct {
				Name string `json:"name"`
			} `json:"tool_result"`
			ClineSession struct {
				ID string `json:"rootSessionId"`
			} `json:"sessionContext"`
		}
		json.Unmarshal(p.stdin, &names)
		p.event, p.tool, p.session = cmp.Or(names.Event, names.CrushEvent), names.Tool, names.Session
		if parts := strings.Split(e.Name(), "."); p.event == "" && len(parts) == 3 {
			p.event = parts[1]
		}
		p.tool = cmp.Or(p.tool, names.CamelTool, names.PluginTool, names.ClineCall.Name, names.ClineResult.Name)
		p.session = cmp.Or(p.session, names.CamelSession, names.PluginID, names.ClineSession.ID)
		out = append(out, p)
	}
	return out
}
