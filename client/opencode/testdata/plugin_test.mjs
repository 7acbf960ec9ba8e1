// lucid's plugin on its own, under node's test runner, with a fake lucid
// (FAKE_LUCID_MODE says what it does) as LUCID_OPENCODE_BIN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, chmodSync, readFileSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const plugin = process.env.PLUGIN;
const dir = mkdtempSync(join(tmpdir(), "lucid-plugin-"));
const fake = join(dir, "lucid");
writeFileSync(fake, `#!/bin/sh
cat > "${dir}/stdin-$4.json"
echo "$@" > "${dir}/args"
env > "${dir}/env"
case "$FAKE_LUCID_MODE" in
deny) echo '{"deny":"lucid: src/a.go is claimed"}' ;;
context) echo '{"context":"NEWS"}' ;;
sleep) exec sleep 30 ;;
garbage) echo 'not json' ;;
crash) exit 3 ;;
esac
`);
chmodSync(fake, 0o755);
process.env.LUCID_OPENCODE_BIN = fake;

const load = async () => (await import(pathToFileURL(plugin).href + "?" + Math.random()));
const hooks = async () => (await load()).LucidPlugin({ client: {}, directory: dir });
const bash = { tool: "bash", sessionID: "ses_a", callID: "call_1" };

test("exports exactly one function", async () => {
  const m = await load();
  assert.deepEqual(Object.keys(m), ["LucidPlugin"]);
  assert.equal(typeof m.LucidPlugin, "function");
});

test("a deny throws with lucid's reason, and hands lucid the call", async () => {
  process.env.FAKE_LUCID_MODE = "deny";
  const h = await hooks();
  await assert.rejects(h["tool.execute.before"](bash, { args: { command: "echo x > src/a.go" } }), { message: "lucid: src/a.go is claimed" });
  const sent = JSON.parse(readFileSync(join(dir, "stdin-PreToolUse.json"), "utf8"));
  assert.deepEqual(sent, { cwd: dir, sessionID: "ses_a", parentID: "", callID: "call_1", tool: "bash", args: { command: "echo x > src/a.go" } });
  assert.equal(readFileSync(join(dir, "args"), "utf8").trim(), "hook --client opencode PreToolUse");
  assert.match(readFileSync(join(dir, "env"), "utf8"), /^LUCID_OPENCODE_HOOK=1$/m);
});

test("a subagent's child session is denied too, named by its parent", async () => {
  process.env.FAKE_LUCID_MODE = "deny";
  const h = await hooks();
  await h.event({ event: { type: "session.created", properties: { info: { id: "ses_child", parentID: "ses_a" } } } });
  await assert.rejects(h["tool.execute.before"]({ ...bash, sessionID: "ses_child" }, { args: { command: "x" } }));
  const sent = JSON.parse(readFileSync(join(dir, "stdin-PreToolUse.json"), "utf8"));
  assert.equal(sent.parentID, "ses_a");
  const out = { env: {} };
  await h["shell.env"]({ cwd: dir, sessionID: "ses_child", callID: "c" }, out);
  assert.equal(out.env.LUCID_OPENCODE_AGENT, "ses_a/ses_child");
});

test("tools that write nothing never start lucid", async () => {
  process.env.FAKE_LUCID_MODE = "deny";
  const h = await hooks();
  await h["tool.execute.before"]({ ...bash, tool: "read" }, { args: {} });
});

for (const [mode, why] of [["sleep", "lucid hangs: killed after the bound"], ["garbage", "an answer that is not JSON"], ["crash", "lucid fails"]]) {
  test(`fails open: ${why}`, { timeout: 20000 }, async () => {
    process.env.FAKE_LUCID_MODE = mode;
    const h = await hooks();
    const t0 = Date.now();
    await h["tool.execute.before"](bash, { args: { command: "x" } });
    assert.ok(Date.now() - t0 < 10000, "took " + (Date.now() - t0) + " ms");
  });
}

test("fails open: lucid missing", async () => {
  process.env.LUCID_OPENCODE_BIN = join(dir, "no-such-lucid");
  try {
    const h = await hooks();
    await h["tool.execute.before"](bash, { args: { command: "x" } });
    const out = { system: [] };
    await h["experimental.chat.system.transform"]({ sessionID: "ses_m" }, out);
    assert.deepEqual(out.system, []);
  } finally {
    process.env.LUCID_OPENCODE_BIN = fake;
  }
});

test("the digest goes into every request's system prompt; news after a tool's result", async () => {
  process.env.FAKE_LUCID_MODE = "context";
  const h = await hooks();
  for (let i = 0; i < 2; i++) {
    const out = { system: ["opencode's"] };
    await h["experimental.chat.system.transform"]({ sessionID: "ses_d" }, out);
    assert.deepEqual(out.system, ["opencode's", "NEWS"]);
  }
  const res = { output: "Wrote file successfully." };
  await h["tool.execute.after"]({ ...bash, tool: "write", args: { filePath: "a" } }, res);
  assert.equal(res.output, "Wrote file successfully.\n\nNEWS");
});

test("loaded from .kilo/plugins, it calls lucid for Kilo Code", async () => {
  process.env.FAKE_LUCID_MODE = "deny";
  const kilo = join(dir, ".kilo", "plugins");
  mkdirSync(kilo, { recursive: true });
  copyFileSync(plugin, join(kilo, "lucid.js"));
  const h = await (await import(pathToFileURL(join(kilo, "lucid.js")).href)).LucidPlugin({ client: {}, directory: dir });
  await assert.rejects(h["tool.execute.before"](bash, { args: { command: "x" } }));
  assert.equal(readFileSync(join(dir, "args"), "utf8").trim(), "hook --client kilo PreToolUse");
});
