// A stand-in for lich's edit guard, for lucid's compatibility tests: the
// marker's name and content exactly as lich's JavaScript makes and reads
// them (charCodeAt FNV-1a, JSON.stringify, JSON.parse).
//
//   node marker.js hash PATH...                 one hash a line
//   node marker.js write GITDIR PATH SESSION AT  writes the marker as lich does
//   node marker.js read GITDIR PATH              prints {path,session,at,types} or "none"
const fs = require("fs")

function fnv1a(text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, "0")
}

const [cmd, ...args] = process.argv.slice(2)
if (cmd === "hash") {
  for (const p of args) console.log(fnv1a(p))
} else if (cmd === "write") {
  const [gitDir, path, session, at] = args
  fs.mkdirSync(`${gitDir}/lich-edits`, { recursive: true })
  fs.writeFileSync(`${gitDir}/lich-edits/${fnv1a(path)}`, JSON.stringify({ path, session, at: Number(at) }))
} else if (cmd === "read") {
  const [gitDir, path] = args
  const file = `${gitDir}/lich-edits/${fnv1a(path)}`
  if (!fs.existsSync(file)) {
    console.log("none")
  } else {
    const m = JSON.parse(fs.readFileSync(file, "utf8"))
    if (m.path !== path) console.log("none")
    else console.log(JSON.stringify({ path: m.path, session: m.session, at: m.at, types: [typeof m.path, typeof m.session, typeof m.at] }))
  }
} else {
  console.error("usage: marker.js hash|write|read ...")
  process.exit(2)
}
