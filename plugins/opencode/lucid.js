// lucid's plugin for opencode and Kilo Code, written by `lucid init`
// (lucid owns this file: `lucid uninstall` removes it). It hands each call
// that matters to `lucid hook --client opencode EVENT` and does what lucid
// answers; lucid decides. Every trouble of its own lets the agent go on:
// only lucid's deny stops a tool.
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";

export const LucidPlugin = async ({ client, directory }) => {
  const LUCID = process.env.LUCID_OPENCODE_BIN || "lucid";
  // Kilo Code loads this same file from .kilo/plugins/: its agents are Kilo's.
  let CLIENT = "opencode";
  try {
    if (/[\\/]\.kilo(code)?[\\/]plugins[\\/]/.test(decodeURIComponent(new URL(import.meta.url).pathname))) CLIENT = "kilo";
  } catch {}
  const TOOL_MS = 5000, START_MS = 15000;
  // Kilo Code's background_process runs a shell command too.
  const WRITERS = new Set(["bash", "write", "edit", "apply_patch", "background_process"]);
  const AFTER = new Set([...WRITERS, "task"]);
  const parents = new Map(); // child session -> parent session
  const digests = new Map(); // session -> the context lucid gave it (not saved by opencode)
  const seen = new Map(); // session -> the log's stamp at its last news
  const continued = new Set(); // sessions the stop gate kept going once
  const tooled = new Set(); // messages whose step calls tools: their text is not the turn's end

  // lucid runs lucid hook with payload on stdin and resolves to its answer
  // ({} for none), killing it after ms.
  const lucid = (event, payload, ms) =>
    new Promise((resolve) => {
      let out = "", done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        try { resolve(out.trim() ? JSON.parse(out) : {}); } catch { resolve({}); }
      };
      let child, timer;
      try {
        const env = { ...process.env, LUCID_OPENCODE_HOOK: "1" };
        delete env.LUCID_OPENCODE_AGENT;
        child = spawn(LUCID, ["hook", "--client", CLIENT, event], { cwd: directory, env, stdio: ["pipe", "pipe", "ignore"] });
      } catch { resolve({}); return; }
      timer = setTimeout(() => { out = ""; try { child.kill("SIGKILL"); } catch {} finish(); }, ms);
      child.on("error", () => { out = ""; finish(); });
      child.stdout.on("data", (d) => { out += d; });
      child.on("close", finish);
      child.stdin.on("error", () => {});
      try { child.stdin.end(JSON.stringify({ cwd: directory, ...payload })); } catch {}
    });

  const who = (sessionID) => ({ sessionID, parentID: parents.get(sessionID) || "" });
  const agent = (sessionID) => {
    const p = parents.get(sessionID);
    return p ? p + "/" + sessionID : sessionID;
  };
  const logStamp = () => {
    try {
      const s = statSync(join(directory, ".lucid", "log.jsonl"));
      return s.size + ":" + s.mtimeMs;
    } catch { return ""; }
  };

  return {
    // event is called for every event and not awaited: only what is cheap
    // and synchronous here, but for the ends of sessions.
    event: async ({ event }) => {
      try {
        const type = event?.type, props = event?.properties;
        const info = props?.info, part = props?.part;
        if (type === "message.part.updated" && part?.messageID) {
          if (part.type === "tool") tooled.add(part.messageID);
          else if (part.type === "step-finish") tooled.delete(part.messageID);
          return;
        }
        if (type === "session.created" && info?.id && info.parentID) parents.set(info.id, info.parentID);
        if (type === "session.idle") {
          const id = props?.sessionID;
          if (!id) return;
          const a = await lucid("Stop", { ...who(id), stopHookActive: continued.has(id) }, TOOL_MS);
          // opencode serve takes one more turn asked for at idle
          // (opencode run has ended by then: see text.complete).
          if (a.block && !parents.has(id) && !continued.has(id)) {
            continued.add(id);
            await client.session.promptAsync({ path: { id }, body: { parts: [{ type: "text", text: a.block }] } });
          }
        }
        if (type === "session.deleted" && info?.id && !info.parentID) {
          const id = info.id;
          await lucid("SessionEnd", who(id), TOOL_MS);
          for (const m of [parents, digests, seen]) m.delete(id);
          continued.delete(id);
        }
      } catch {}
    },
    // The model's text is complete. Where no tool call came with it, the
    // turn ends here unless a new prompt arrives now, while the loop still
    // runs: the one moment the stop gate can have one more turn, once per
    // session. The claims end at idle.
    "experimental.text.complete": async (input) => {
      try {
        const id = input?.sessionID;
        if (!id || continued.has(id) || tooled.has(input.messageID)) return;
        const a = await lucid("Stop", { ...who(id), textEnd: true }, TOOL_MS);
        if (a.block && !continued.has(id) && !tooled.has(input.messageID)) {
          continued.add(id);
          await client.session.prompt({ path: { id }, body: { noReply: true, parts: [{ type: "text", text: a.block }] } });
        }
      } catch {}
    },
    // A compaction drops what the session was told: lucid is told, and
    // gives the digest again with the session's next news.
    "experimental.session.compacting": async (input) => {
      try {
        const id = input?.sessionID;
        if (!id) return;
        await lucid("PreCompact", who(id), TOOL_MS);
        digests.set(id, "");
        seen.delete(id);
      } catch {}
    },
    "experimental.chat.system.transform": async (input, output) => {
      try {
        const id = input?.sessionID;
        if (!id || !Array.isArray(output?.system)) return;
        if (!digests.has(id)) {
          seen.set(id, logStamp());
          const a = await lucid("SessionStart", who(id), START_MS);
          digests.set(id, a.context || "");
        } else {
          const stamp = logStamp();
          if (stamp !== seen.get(id)) {
            seen.set(id, stamp);
            const a = await lucid("UserPromptSubmit", who(id), TOOL_MS);
            if (a.context) digests.set(id, (digests.get(id) ? digests.get(id) + "\n\n" : "") + a.context);
          }
        }
        if (digests.get(id)) output.system.push(digests.get(id));
      } catch {}
    },
    "tool.execute.before": async (input, output) => {
      let a = {};
      try {
        if (!WRITERS.has(input?.tool)) return;
        a = await lucid("PreToolUse", { ...who(input.sessionID), callID: input.callID, tool: input.tool, args: output?.args }, TOOL_MS);
      } catch { return; }
      if (a && typeof a.deny === "string" && a.deny) throw new Error(a.deny);
    },
    "shell.env": async (input, output) => {
      try {
        if (input?.sessionID && output?.env) output.env.LUCID_OPENCODE_AGENT = agent(input.sessionID);
      } catch {}
    },
    "tool.execute.after": async (input, output) => {
      try {
        if (!AFTER.has(input?.tool)) return;
        const a = await lucid("PostToolUse", { ...who(input.sessionID), callID: input.callID, tool: input.tool, args: input.args }, TOOL_MS);
        if (a.context && typeof output?.output === "string") output.output += "\n\n" + a.context;
        if (a.context) seen.set(input.sessionID, logStamp());
      } catch {}
    },
  };
};
