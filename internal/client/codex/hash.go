package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/internal/client"
)

// How Codex 0.169.0 decides that a hook is trusted, read from its source
// (codex-rs/hooks/src/engine/discovery.rs, config/src/fingerprint.rs) and
// checked here against the binary. A hook runs, without
// --dangerously-bypass-hook-trust, only when $CODEX_HOME/config.toml has
//
//	[hooks.state."<hooks file>:<event_snake>:<group index>:<handler index>"]
//	trusted_hash = "sha256:<hex>"
//
// whose hash is that of the handler's normalized identity: the JSON object
// {"event_name": <event_snake>, "matcher": <matcher>, "hooks": [{"type":
// "command", "command": ..., "timeout": <seconds>, "async": <bool>,
// "statusMessage": ...}]}, with "matcher" left out for the events that
// ignore it (or when the group has none) and "statusMessage" when unset,
// the timeout defaulted (600 s; 1 s for SessionEnd and Interrupt; at
// least 1), every object's keys sorted, written without spaces; sha256 of
// that text. A hash that does not match (the entry was edited) is
// "modified", and skipped like an untrusted one, without a word.

// codexEventKey is an event's label in keys and hashes: its name in
// snake case ("PreToolUse" is "pre_tool_use").
func codexEventKey(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexNoMatcher reports whether Codex ignores an event's matcher
// (hooks/list shows it null).
func codexNoMatcher(event string) bool {
	switch event {
	case client.UserPromptSubmit, "PreModelRequest", client.Stop, "Interrupt": // Codex names two events lucid does not register
		return true
	}
	return false
}

// Handler is one command hook as a hooks file spells it.
type Handler struct {
	Event, Matcher, Command, StatusMessage string
	Timeout                                *int // seconds; nil for the default
	Async                                  bool
}

// HookKey is the handler's key in [hooks.state."..."].
func HookKey(hooksFile, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, codexEventKey(event), group, handler)
}

// HookHash is the trusted_hash Codex 0.169.0 computes for a handler.
func HookHash(h Handler) string {
	timeout := 600
	switch {
	case h.Timeout != nil:
		timeout = max(*h.Timeout, 1)
	case h.Event == client.SessionEnd || h.Event == "Interrupt":
		timeout = 1
	}
	handler := map[string]any{"type": "command", "command": h.Command, "timeout": timeout, "async": h.Async}
	if h.StatusMessage != "" {
		handler["statusMessage"] = h.StatusMessage
	}
	identity := map[string]any{"event_name": codexEventKey(h.Event), "hooks": []any{handler}}
	if h.Matcher != "" && !codexNoMatcher(h.Event) {
		identity["matcher"] = h.Matcher
	}
	var b bytes.Buffer
	canonicalJSON(&b, identity)
	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonicalJSON writes v as serde_json does after sorting keys: compact,
// keys in byte order, strings escaped only where JSON must (no \u003c for
// '<', no \u2028: encoding/json's escapes would change the hash).
func canonicalJSON(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonString(b, k)
			b.WriteByte(':')
			canonicalJSON(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			canonicalJSON(b, x)
		}
		b.WriteByte(']')
	case string:
		jsonString(b, v)
	case int:
		fmt.Fprint(b, v)
	case bool:
		fmt.Fprint(b, v)
	}
}

func jsonString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		case r == utf8.RuneError:
			b.WriteString("\uFFFD")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
