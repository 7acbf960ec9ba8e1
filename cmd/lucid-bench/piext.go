package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/internal/client/pi"
)

// piRows times what lucid's Pi extension costs a tool call from inside
// the client, as opencodeRows does for the opencode plugin: the extension
// runs in the agent's own process, Pi's (node) and oh-my-pi's (Bun), and
// spawns one lucid hook before a writing tool (tool_call) and one after
// it (tool_result); any other tool spawns none. Each runs from the path
// the client loads it from (.pi/extensions/ or .omp/extensions/), which
// is how the extension tells which client it serves. The floor is the
// hello-world binary spawned by the same runtime as the extension spawns
// lucid.
//
// Pi runs under node; oh-my-pi under Bun as opencode carries it
// (LUCID_BENCH_OPENCODE) or a bun on PATH, else node, said in the table's
// title.
func piRows(b *bench, s *scratch, n int) error {
	node, _ := exec.LookPath("node")
	omp, ompEnv, _ := pluginRuntime()
	if omp == "" {
		omp = node
	}
	for _, c := range []struct {
		client, file, runtime string
		env                   []string
	}{
		{"pi", pi.ExtensionName, node, nil},
		{"omp", pi.OmpExtensionName, omp, ompEnv},
	} {
		label := c.client + " extension"
		if c.runtime == "" {
			why := "no node to run it in"
			fmt.Fprintf(b.out, "  %s not measured: %s\n", label, why)
			b.addUnmeasured(label+", before a writing tool (1 run) within 1.35x floor", why)
			continue
		}
		dir := filepath.Join(b.root, c.client+"-js")
		ext := filepath.Join(dir, c.file)
		driver := filepath.Join(dir, "driver.mjs")
		if err := os.MkdirAll(filepath.Dir(ext), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(ext, pi.Extension, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(driver, []byte(piDriver), 0o644); err != nil {
			return err
		}
		// A file of each client's own: the edits before leave leases on theirs.
		file := "docs/" + c.client + "-bench.md"
		cmd := exec.Command(c.runtime, driver, ext, s.dir, b.hello, fmt.Sprint(b.warmups), fmt.Sprint(b.runs), file)
		cmd.Dir = s.dir
		cmd.Env = append(append(append([]string{}, b.env...), c.env...), "LUCID_PI_BIN="+b.lucid)
		got, err := runDriver(cmd, "the "+label+"'s driver under "+c.runtime)
		if err != nil {
			return err
		}
		if got.WriteErr != "" {
			return fmt.Errorf("the %s's writing tool call: %s", label, got.WriteErr)
		}
		printDriverRows(b, got, n, label)
	}
	return nil
}

// piDriver loads the extension as Pi and omp do (its default export
// called with an API whose on() registers the handlers) and calls them as
// they do for one session: its start and first prompt (the digest, which
// it awaits), then in turns a write tool's tool_call and tool_result, the
// hello-world binary spawned as the extension spawns lucid (its
// environment copied, stdin a payload), and a read tool's two events. It
// prints the times in ms as JSON.
//
// argv: the extension, the repository, hello, warm-ups, runs, the file
// the tools write and read.
var piDriver = strings.TrimSpace(`
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
const [ext, dir, hello, warmups, runs, file] = process.argv.slice(2);
const { default: lucidExtension } = await import(pathToFileURL(ext).href);
const on = {};
lucidExtension({ on: (name, f) => { on[name] = f; }, sendMessage: () => {} });
const session = "01a24d37-fd9f-70cf-a5b7-d319f5e3db07";
const ctx = { cwd: dir, sessionManager: {
  getSessionId: () => session, getSessionFile: () => dir + "/.bench-session.jsonl", getHeader: () => ({ cwd: dir }),
} };
await on.session_start({ reason: "startup" }, ctx);
await on.before_agent_start({ systemPrompt: "" }, ctx);
const spawnHello = () => new Promise((resolve) => {
  const c = spawn(hello, [], { cwd: dir, env: { ...process.env, LUCID_PI_HOOK: "1" }, stdio: ["pipe", "pipe", "ignore"] });
  c.stdout.on("data", () => {});
  c.on("close", resolve);
  c.on("error", resolve);
  c.stdin.on("error", () => {});
  c.stdin.end(JSON.stringify({ sessionID: session, parentID: "", cwd: dir }));
});
let call = 0, writeErr = "";
const time = async (fn) => { const t = performance.now(); await fn(); return performance.now() - t; };
// tool times a tool call's two events.
const tool = async (toolName, input) => {
  const toolCallId = "call_" + ++call + "_0";
  const before = await time(async () => {
    const a = await on.tool_call({ type: "tool_call", toolName, toolCallId, input }, ctx);
    if (a && a.block) writeErr = String(a.reason);
  });
  const after = await time(() => on.tool_result({ type: "tool_result", toolName, toolCallId, input, content: [{ type: "text", text: "ok" }], isError: false }, ctx));
  return [before, after];
};
const out = { runtime: typeof Bun === "object" ? "Bun " + Bun.version : "node " + process.version, before: [], after: [], read: [], floor: [] };
const total = Number(warmups) + Number(runs);
for (let i = 0; i < total; i++) {
  const [before, after] = await tool("write", { path: file, content: "x" + i });
  const floor = await time(spawnHello);
  const read = (await tool("read", { path: file })).reduce((a, b) => a + b);
  if (i < Number(warmups)) continue;
  out.before.push(before); out.after.push(after); out.floor.push(floor); out.read.push(read);
}
out.writeErr = writeErr;
console.log(JSON.stringify(out));
`) + "\n"
