// lucid's plugin for opencode as an npm package, named in opencode.json's
// "plugin" list. lucid.js is the plugin that `lucid init` writes into
// .opencode/plugins/; this file decides, once when opencode loads it,
// whether it runs:
// - where the project has lucid's own plugin file (a teammate ran lucid
//   init), opencode loads that one too, and this one stands aside, so that
//   each event runs lucid once;
// - where no lucid is on PATH, it says so once, how to install lucid, and
//   does nothing: no tool is stopped.
import { readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { LucidPlugin as Lucid } from "./lucid.js";

const HEAD = "// lucid's plugin for opencode";
const MISSING = "lucid is installed in this client as a plugin, but no lucid binary is on PATH, so its hooks do nothing: " +
  "install lucid (curl -fsSL https://github.com/lucid-dev/lucid/releases/latest/download/install.sh | sh, " +
  "or npm install -g @lucid-dev/lucid) and start a new session.";

const projectHasLucid = (dirs) =>
  dirs.some((d) => {
    try { return d && readFileSync(join(d, ".opencode", "plugins", "lucid.js"), "utf8").startsWith(HEAD); } catch { return false; }
  });

const onPath = (name) => {
  if (process.env.LUCID_OPENCODE_BIN) return true;
  const exts = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  for (const dir of (process.env.PATH || "").split(delimiter)) {
    for (const ext of exts) {
      try { if (dir && statSync(join(dir, name + ext)).isFile()) return true; } catch {}
    }
  }
  return false;
};

export const LucidPlugin = async (ctx) => {
  if (projectHasLucid([ctx.directory, ctx.worktree])) return {};
  if (!onPath("lucid")) {
    console.error(MISSING);
    try { await ctx.client.app.log({ body: { service: "lucid", level: "warn", message: MISSING } }); } catch {}
    return {};
  }
  return Lucid(ctx);
};
