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
block) echo '{"block":"RECORD"}' ;;
counted) n=$(cat "${dir}/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/count"; echo '{"context":"C'$n'"}' ;;
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

// A client whose session.prompt and promptAsync calls are kept.
const recordingClient = () => {
  const sent = [];
  const keep = (how) => async (req) => { sent.push({ how, ...req }); return {}; };
  return { sent, client: { session: { prompt: keep("prompt"), promptAsync: keep("promptAsync") } } };
};
const read = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));

test("the stop gate asks for one more turn at the end of the model's text, once, keeping the claims", async () => {
  process.env.FAKE_LUCID_MODE = "block";
  const { sent, client } = recordingClient();
  const h = await (await load()).LucidPlugin({ client, directory: dir });
  // Text followed by a tool call in the same step is not the end.
  await h.event({ event: { type: "message.part.updated", properties: { part: { type: "tool", messageID: "msg_1" } } } });
  await h["experimental.text.complete"]({ sessionID: "ses_g", messageID: "msg_1", partID: "prt_1" }, { text: "Let me edit." });
  assert.equal(sent.length, 0);
  await h["experimental.text.complete"]({ sessionID: "ses_g", messageID: "msg_2", partID: "prt_2" }, { text: "Done." });
  assert.deepEqual(read("stdin-Stop.json"), { cwd: dir, sessionID: "ses_g", parentID: "", textEnd: true });
  assert.deepEqual(sent, [{ how: "prompt", path: { id: "ses_g" }, body: { noReply: true, parts: [{ type: "text", text: "RECORD" }] } }]);
  await h["experimental.text.complete"]({ sessionID: "ses_g", messageID: "msg_3", partID: "prt_3" }, { text: "Done again." });
  await h.event({ event: { type: "session.idle", properties: { sessionID: "ses_g" } } });
  assert.equal(sent.length, 1, "asked twice");
  assert.deepEqual(read("stdin-Stop.json"), { cwd: dir, sessionID: "ses_g", parentID: "", stopHookActive: true });
});

test("at idle, a session the gate has not asked yet is asked through promptAsync (opencode serve)", async () => {
  process.env.FAKE_LUCID_MODE = "block";
  const { sent, client } = recordingClient();
  const h = await (await load()).LucidPlugin({ client, directory: dir });
  await h.event({ event: { type: "session.idle", properties: { sessionID: "ses_s" } } });
  assert.deepEqual(sent.map((s) => s.how), ["promptAsync"]);
  await h.event({ event: { type: "session.idle", properties: { sessionID: "ses_s" } } });
  assert.equal(sent.length, 1);
});

test("after a compaction the session's news starts again from the digest", async () => {
  process.env.FAKE_LUCID_MODE = "counted";
  writeFileSync(join(dir, "count"), "0");
  const h = await hooks();
  const transform = async () => {
    const out = { system: [] };
    await h["experimental.chat.system.transform"]({ sessionID: "ses_k" }, out);
    return out.system;
  };
  assert.deepEqual(await transform(), ["C1"]);
  await h["experimental.session.compacting"]({ sessionID: "ses_k" }, { context: [] });
  assert.deepEqual(read("stdin-PreCompact.json"), { cwd: dir, sessionID: "ses_k", parentID: "" });
  assert.deepEqual(await transform(), ["C3"], "the digest after the compaction, in place of what came before");
  assert.deepEqual(read("stdin-UserPromptSubmit.json"), { cwd: dir, sessionID: "ses_k", parentID: "" });
});

test("a deleted session's claims end; a child's deletion is not its parent's end", async () => {
  process.env.FAKE_LUCID_MODE = "";
  const h = await hooks();
  await h.event({ event: { type: "session.deleted", properties: { info: { id: "ses_c2", parentID: "ses_p" } } } });
  await h.event({ event: { type: "session.deleted", properties: { info: { id: "ses_p" } } } });
  assert.deepEqual(read("stdin-SessionEnd.json"), { cwd: dir, sessionID: "ses_p", parentID: "" });
});
