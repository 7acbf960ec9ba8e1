package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/client/opencode"
)

// pluginSection times what lucid's opencode plugin (the same file Kilo
// Code loads) costs a tool call from inside the client: the plugin runs in
// opencode's own process, so each lucid hook it calls is a process that
// Bun spawns and awaits, on top of the hook's own time in the clients
// section. A writing tool call runs lucid twice (tool.execute.before and
// tool.execute.after); any other tool runs none. The floor is the
// hello-world binary spawned by the same runtime in the same way.
//
// The runtime is Bun as opencode carries it (its binary runs as bun with
// BUN_BE_BUN=1; make bench installs opencode and names it in
// LUCID_BENCH_OPENCODE), else
// a bun or node on PATH, said in the table's title. lucid's Pi extension
// follows, on the same log (piRows).
func pluginSection(b *bench) error {
	n := slices.Min(b.sizes)
	return b.withLog("plugin", n, func(s *scratch) error {
		if err := opencodeRows(b, s, n); err != nil {
			return err
		}
		return piRows(b, s, n)
	})
}

// opencodeRows times lucid's opencode plugin on s's log of n entries.
func opencodeRows(b *bench, s *scratch, n int) error {
	runtime, env, why := pluginRuntime()
	label := "opencode plugin, a writing tool call"
	if runtime == "" {
		fmt.Fprintf(b.out, "  not measured: %s\n", why)
		b.addUnmeasured(label+" (2 lucid runs) within 1.35x its floor", why)
		return nil
	}
	dir := filepath.Join(b.root, "plugin-js")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plugin, driver := filepath.Join(dir, "lucid.js"), filepath.Join(dir, "driver.mjs")
	if err := os.WriteFile(plugin, opencode.Plugin, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(driver, []byte(pluginDriver), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(runtime, driver, plugin, s.dir, b.hello, fmt.Sprint(b.warmups), fmt.Sprint(b.runs))
	cmd.Dir = s.dir
	cmd.Env = append(append(append([]string{}, b.env...), env...), identity.OpencodeAgentVar+"=", "LUCID_OPENCODE_BIN="+b.lucid)
	got, err := runDriver(cmd, "the plugin's driver under "+runtime)
	if err != nil {
		return err
	}
	if got.WriteErr != "" {
		return fmt.Errorf("the plugin's writing tool call: %s", got.WriteErr)
	}
	printDriverRows(b, got, n, "opencode plugin")
	return nil
}

// driverTimes is what a driver prints: the runtime, and each series in ms.
type driverTimes struct {
	Runtime                    string
	Before, After, Read, Floor []float64
	WriteErr                   string
}

// runDriver runs a driver and reads its times; what names it in errors.
func runDriver(cmd *exec.Cmd, what string) (driverTimes, error) {
	var got driverTimes
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return got, fmt.Errorf("%s: %v", what, err)
	}
	if err := json.Unmarshal(out, &got); err != nil {
		return got, fmt.Errorf("%s printed %q: %v", what, firstLine(out), err)
	}
	return got, nil
}

// printDriverRows prints a driver's rows, its hello-world runs as their
// floor, and adds their goals.
func printDriverRows(b *bench, got driverTimes, n int, name string) {
	floor := summarize(got.Floor).median
	fmt.Fprintf(b.out, "  %-46s %10s %10s %10s %8s\n", "under "+got.Runtime+", "+sizeName(n)+" entries", "median", "max", "floor", "x floor")
	// The hook before a tool has the goal of every client's: the tool
	// waits for it. The one after also saves the edit, and has none.
	for _, row := range []struct {
		label string
		times []float64
		goal  bool
	}{
		{name + ", before a writing tool (1 run)", got.Before, true},
		{name + ", after it (1 run)", got.After, false},
	} {
		sp := summarize(row.times)
		t := timing{median: sp.median, max: sp.max, floor: floor}
		fmt.Fprintf(b.out, "  %-46s %s %s %s %8.2f\n", row.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
		if row.goal {
			b.addGoal(fmt.Sprintf("%s, at %s within 1.35x floor", row.label, sizeName(n)), xFloor(t), 1.35)
		}
	}
	read := summarize(got.Read)
	fmt.Fprintf(b.out, "  %-46s %s %s %10s %8s\n", name+", any other tool call (no run)", ms(read.median), ms(read.max), "-", "-")
	b.addGoalIn(name+", any other tool call", float64(read.median)/float64(time.Millisecond), 0.1, "ms")
}

// pluginRuntime is the JavaScript runtime to run the plugin in, with the
// variables it needs, or why there is none.
func pluginRuntime() (path string, env []string, why string) {
	bin := os.Getenv("LUCID_BENCH_OPENCODE")
	if bin != "" {
		if err := exec.Command(bin, "--version").Run(); err == nil {
			return bin, []string{"BUN_BE_BUN=1"}, ""
		}
		why = bin + " does not run; "
	}
	for _, name := range []string{"bun", "node"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil, ""
		}
	}
	return "", nil, why + "no opencode (make bench installs it), bun or node to run the plugin in"
}

// spread is a series' median and maximum.
type spread struct{ median, max time.Duration }

func summarize(msList []float64) spread {
	if len(msList) == 0 {
		return spread{}
	}
	s := slices.Clone(msList)
	slices.Sort(s)
	d := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	return spread{median: d(s[len(s)/2]), max: d(s[len(s)-1])}
}

// pluginDriver loads the plugin as opencode does and calls its hooks as
// opencode does for one session: the first request's system prompt (the
// digest), then in turns a write tool's before and after, the hello-world
// binary spawned as the plugin spawns lucid, and a read tool's before and
// after. It prints the times in ms as JSON.
//
// argv: plugin, the repository, hello, warm-ups, runs.
var pluginDriver = strings.TrimSpace(`
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
const [plugin, dir, hello, warmups, runs] = process.argv.slice(2);
const { LucidPlugin } = await import(pathToFileURL(plugin).href);
const h = await LucidPlugin({ client: { session: {} }, directory: dir });
const session = "ses_bench0000000000000000000";
await h["experimental.chat.system.transform"]({ sessionID: session }, { system: [] });
const spawnHello = () => new Promise((resolve) => {
  const c = spawn(hello, [], { cwd: dir, stdio: ["pipe", "pipe", "ignore"] });
  c.stdout.on("data", () => {});
  c.on("close", resolve);
  c.on("error", resolve);
  c.stdin.on("error", () => {});
  c.stdin.end("{}");
});
let call = 0, writeErr = "";
const time = async (fn) => { const t = performance.now(); await fn(); return performance.now() - t; };
// tool times a tool call's before and after hooks.
const tool = async (name, args) => {
  const input = { tool: name, sessionID: session, callID: "call_" + ++call };
  const before = await time(async () => {
    try { await h["tool.execute.before"](input, { args }); } catch (e) { writeErr = String(e.message || e); }
  });
  const after = await time(() => h["tool.execute.after"]({ ...input, args }, { title: "", output: "ok", metadata: {} }));
  return [before, after];
};
const out = { runtime: typeof Bun === "object" ? "Bun " + Bun.version : "node " + process.version, before: [], after: [], read: [], floor: [] };
const total = Number(warmups) + Number(runs);
for (let i = 0; i < total; i++) {
  const [before, after] = await tool("write", { filePath: "docs/bench.md", content: "x" + i });
  const floor = await time(spawnHello);
  const read = (await tool("read", { filePath: "docs/bench.md" })).reduce((a, b) => a + b);
  if (i < Number(warmups)) continue;
  out.before.push(before); out.after.push(after); out.floor.push(floor); out.read.push(read);
}
out.writeErr = writeErr;
console.log(JSON.stringify(out));
`) + "\n"
