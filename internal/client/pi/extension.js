// lucid's extension for Pi and oh-my-pi, written by `lucid init` (lucid
// owns this file: `lucid uninstall` removes it). It hands each call that
// matters to `lucid hook --client pi|omp EVENT` and does what lucid
// answers; lucid decides. Pi stops altogether when an extension throws
// while it loads, so nothing here runs at load but the registration, in a
// try; every call to lucid is bounded by a timeout, and every trouble of
// its own lets the agent go on: only lucid's deny stops a tool.
import { spawn, spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";

export default function lucidExtension(pi) {
  try {
    register(pi);
  } catch {}
}

function register(pi) {
  // oh-my-pi loads this same file from .omp/extensions/ (or
  // ~/.omp/agent/extensions/) and runs in Bun; its agents are omp's.
  let here = "";
  try { here = decodeURIComponent(new URL(import.meta.url).pathname); } catch {}
  const OMP = /[\\/]\.omp[\\/]/.test(here) || (!/[\\/]\.pi[\\/]/.test(here) && typeof process.versions.bun === "string");
  const CLIENT = OMP ? "omp" : "pi";
  const LUCID = process.env.LUCID_PI_BIN || "lucid";
  const TOOL_MS = 5000, START_MS = 15000, END_MS = 2000;
  const AGENT_VAR = OMP ? "LUCID_OMP_AGENT" : "LUCID_PI_AGENT";
  // The tools that write work-tree files or run a shell; omp's ast_edit
  // rewrites files by pattern.
  const WRITERS = new Set(["bash", "write", "edit", "ast_edit"]);
  // Shared by every copy of this file in the process: a project's and the
  // user's copy both load (one handles each session), and omp runs its
  // subagents' sessions in the same process (a child's header names its
  // parent's session file).
  const shared = globalThis.__lucidPi || (globalThis.__lucidPi = { owners: new Map(), files: new Map() });
  const me = {}; // this copy's token among the owners
  const sessions = new Map(); // session id -> its state
  let last = null; // the session of the latest event: queued handlers' ctx may be stale

  // lucid runs lucid hook with payload on stdin and resolves to its answer
  // ({} for none), killing it after ms.
  const lucid = (event, payload, ms) =>
    new Promise((resolve) => {
      let out = "", done = false, child, timer;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        try { resolve(out.trim() ? JSON.parse(out) : {}); } catch { resolve({}); }
      };
      try {
        child = spawn(LUCID, ["hook", "--client", CLIENT, event], { cwd: payload.cwd || process.cwd(), env: hookEnv(), stdio: ["pipe", "pipe", "ignore"] });
      } catch { resolve({}); return; }
      timer = setTimeout(() => { out = ""; try { child.kill("SIGKILL"); } catch {} finish(); }, ms);
      child.on("error", () => { out = ""; finish(); });
      child.stdout.on("data", (d) => { out += d; });
      child.on("close", finish);
      child.stdin.on("error", () => {});
      try { child.stdin.end(JSON.stringify(payload)); } catch {}
    });
  // lucidSync is lucid's answer while the event loop waits: the one moment
  // Pi takes one more turn does not outlast an await.
  const lucidSync = (event, payload, ms) => {
    try {
      const r = spawnSync(LUCID, ["hook", "--client", CLIENT, event], {
        cwd: payload.cwd || process.cwd(), env: hookEnv(), input: JSON.stringify(payload),
        timeout: ms, killSignal: "SIGKILL", stdio: ["pipe", "pipe", "ignore"], maxBuffer: 1 << 20,
      });
      const out = r && r.stdout ? String(r.stdout).trim() : "";
      return out && !r.error ? JSON.parse(out) : {};
    } catch { return {}; }
  };
  const hookEnv = () => {
    const env = { ...process.env, LUCID_PI_HOOK: "1" };
    delete env.LUCID_PI_AGENT;
    delete env.LUCID_OMP_AGENT;
    return env;
  };

  const agent = (s) => (s.parent ? s.parent + "/" + s.id : s.id);
  const who = (s) => ({ sessionID: s.id, parentID: s.parent, cwd: s.cwd });
  const logStamp = (s) => {
    try {
      const st = statSync(join(s.cwd, ".lucid", "log.jsonl"));
      return st.size + ":" + st.mtimeMs;
    } catch { return ""; }
  };

  // session is the state of ctx's session, made at its first event; null
  // where another copy of this file handles it.
  const session = (ctx) => {
    let id = "", file = "", parentFile = "", cwd = "";
    try {
      const sm = ctx && ctx.sessionManager;
      id = (sm && sm.getSessionId()) || "";
      file = (sm && sm.getSessionFile()) || "";
      const h = sm && sm.getHeader();
      parentFile = (h && h.parentSession) || "";
      cwd = (ctx && ctx.cwd) || (h && h.cwd) || "";
    } catch {}
    if (!id) return last;
    if (!shared.owners.has(id)) shared.owners.set(id, me);
    if (shared.owners.get(id) !== me) return null;
    let s = sessions.get(id);
    if (!s) {
      // Only omp's subagents are sessions of one process with a parent;
      // Pi's header names a parent for a fork, another agent's session.
      const parent = OMP && parentFile ? shared.files.get(parentFile) || "" : "";
      s = { id, parent, cwd: cwd || process.cwd(), digest: "", late: "", prompts: 0, continued: false, stamp: "", start: null };
      sessions.set(id, s);
      if (file) shared.files.set(file, id);
    }
    last = s;
    return s;
  };
  const begin = (s, source) => {
    if (!s.start || source === "compact") {
      s.stamp = logStamp(s);
      s.start = lucid("SessionStart", { ...who(s), source }, START_MS).then((a) => {
        s.digest = (a && typeof a.context === "string" && a.context) || "";
        if (source === "compact") s.late = s.digest;
      }, () => {});
    }
    return s.start;
  };
  const on = (name, f) => {
    try {
      pi.on(name, async (event, ctx) => {
        try { return await f(event || {}, ctx); } catch { return undefined; }
      });
    } catch {}
  };

  on("session_start", async (event, ctx) => {
    const s = session(ctx);
    if (!s) return;
    // Pi's bash tool runs with Pi's own environment, read at each call:
    // the agent's lucid commands are signed from the shell.
    if (!OMP) process.env.LUCID_PI_AGENT = agent(s);
    begin(s, event.reason === "resume" ? "resume" : "startup");
  });

  // The digest goes at the end of the system prompt, which Pi rebuilds
  // for every prompt and never saves; the news since the last prompt goes
  // as a message the session keeps.
  on("before_agent_start", async (event, ctx) => {
    const s = session(ctx);
    if (!s) return;
    await begin(s, "startup");
    s.late = "";
    let news = "";
    if (s.prompts++ > 0) {
      const stamp = logStamp(s);
      if (stamp !== s.stamp) {
        s.stamp = stamp;
        const a = await lucid("UserPromptSubmit", who(s), TOOL_MS);
        news = (a && typeof a.context === "string" && a.context) || "";
      }
    }
    const out = {};
    if (s.digest) {
      const sp = event.systemPrompt;
      if (Array.isArray(sp)) out.systemPrompt = [...sp, s.digest];
      else if (typeof sp === "string") out.systemPrompt = sp + "\n\n" + s.digest;
    }
    if (news) out.message = { customType: "lucid", content: news, display: false };
    return out.systemPrompt || out.message ? out : undefined;
  });

  // After a compaction inside a prompt, the new digest rides on each of
  // that prompt's requests until the next prompt's system prompt has it.
  on("context", async (event, ctx) => {
    const s = session(ctx);
    if (!s || !s.late || !Array.isArray(event.messages)) return;
    return { messages: [...event.messages, { role: "user", content: [{ type: "text", text: s.late }], timestamp: Date.now() }] };
  });

  on("tool_call", async (event, ctx) => {
    const s = session(ctx);
    if (!s || !WRITERS.has(event.toolName)) return;
    const input = event.input && typeof event.input === "object" ? event.input : {};
    // omp's bash tool takes the command's environment as an argument.
    if (OMP && event.toolName === "bash") {
      try { input.env = { ...(input.env && typeof input.env === "object" ? input.env : {}), LUCID_OMP_AGENT: agent(s) }; } catch {}
    }
    const a = await lucid("PreToolUse", { ...who(s), tool: event.toolName, callID: event.toolCallId || "", args: input }, TOOL_MS);
    if (a && typeof a.deny === "string" && a.deny) return { block: true, reason: a.deny };
  });

  on("tool_result", async (event, ctx) => {
    const s = session(ctx);
    if (!s || !WRITERS.has(event.toolName)) return;
    const a = await lucid("PostToolUse", { ...who(s), tool: event.toolName, callID: event.toolCallId || "", args: event.input || {} }, TOOL_MS);
    if (!a || typeof a.context !== "string" || !a.context) return;
    s.stamp = logStamp(s);
    const content = Array.isArray(event.content) ? event.content : [];
    return { content: [...content, { type: "text", text: "\n\n" + a.context }] };
  });

  // The stop gate. Pi -p takes one more turn only when it is asked for
  // while the assistant's last message ends, synchronously; omp asks its
  // session_stop handlers. The claims stay until agent_end.
  if (OMP) {
    on("session_stop", async (event, ctx) => {
      const s = session(ctx);
      if (!s) return;
      const a = await lucid("Stop", { ...who(s), gate: true, stopHookActive: !!event.stop_hook_active || s.continued }, TOOL_MS);
      if (a && typeof a.block === "string" && a.block && !s.continued) {
        s.continued = true;
        return { continue: true, additionalContext: a.block };
      }
    });
  } else {
    on("message_end", async (event) => {
      const s = last, m = event.message;
      if (!s || s.continued || !m || m.role !== "assistant" || m.stopReason !== "stop") return;
      const a = lucidSync("Stop", { ...who(s), gate: true }, TOOL_MS);
      if (a && typeof a.block === "string" && a.block) {
        s.continued = true;
        pi.sendMessage({ customType: "lucid", content: a.block, display: true }, { deliverAs: "followUp" });
      }
    });
  }

  // The prompt's end: the agent's claims end (the gate has run).
  on("agent_end", async (event, ctx) => {
    const s = session(ctx) || last;
    if (!s) return;
    await lucid("Stop", { ...who(s), stopHookActive: true }, TOOL_MS);
  });

  on("session_before_compact", async (event, ctx) => {
    const s = session(ctx);
    if (s) await lucid("PreCompact", who(s), TOOL_MS);
  });
  on("session_compact", async (event, ctx) => {
    const s = session(ctx);
    if (s) await begin(s, "compact");
  });

  on("session_shutdown", async (event, ctx) => {
    const s = session(ctx) || last;
    if (!s || s.parent) return; // a subagent's claims end at its stop
    await lucid("SessionEnd", who(s), END_MS);
    sessions.delete(s.id);
    shared.owners.delete(s.id);
  });
}
