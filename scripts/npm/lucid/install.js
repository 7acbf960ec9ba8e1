'use strict';
// The postinstall of @lucid-dev/lucid, and what its launcher (bin/lucid)
// shares with it.
//
// The native binaries come in a package per platform, which npm installs as
// an optional dependency (its package.json's os and cpu fields tell npm which
// one). The files this package names as its bins, bin/lucid and
// bin/lucid-view, are a node launcher that runs them; npm links them onto
// PATH. The postinstall then puts the native binary in the launcher's place
// (a copy, or a hard link, renamed over it), so that `lucid` on PATH is the
// binary itself: the hooks that `lucid init` writes run `lucid hook EVENT` on
// every tool call of an agent, where lucid's own start is about a
// millisecond and node's some tens of milliseconds. Where the postinstall
// does not run (--ignore-scripts, or a package manager that runs no
// dependency's scripts) the launcher does the same on its first run.
//
// On Windows npm's shims (lucid.cmd, lucid.ps1 and the sh one) were written
// for the launcher, and run it with node whatever the file holds: there the
// launcher stays.

const fs = require('fs');
const path = require('path');

const names = ['lucid', 'lucid-view'];

// platformPackage is the name of this platform's package.
function platformPackage() {
  return '@lucid-dev/lucid-' + process.platform + '-' + process.arch;
}

// nativePath is the path of the native binary NAME in this platform's
// package, or null when that package is not installed.
function nativePath(name) {
  let dir;
  try {
    dir = path.dirname(require.resolve(platformPackage() + '/package.json'));
  } catch {
    return null;
  }
  const p = path.join(dir, 'bin', name + (process.platform === 'win32' ? '.exe' : ''));
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    // A tarball unpacked without its modes: make it runnable.
    try {
      fs.chmodSync(p, 0o755);
    } catch {
      return null;
    }
  }
  return p;
}

// isScript reports whether the file at p is a script (a node launcher)
// rather than a native binary.
function isScript(p) {
  const fd = fs.openSync(p, 'r');
  try {
    const b = Buffer.alloc(2);
    return fs.readSync(fd, b, 0, 2, 0) === 2 && b.toString() === '#!';
  } finally {
    fs.closeSync(fd);
  }
}

// replaceLaunchers puts each native binary in its launcher's place; it
// returns what it did, for the postinstall to print, or throws.
function replaceLaunchers() {
  if (process.platform === 'win32') {
    return 'on Windows npm runs the launcher through node: lucid stays a node launcher';
  }
  const done = [];
  for (const name of names) {
    const native = nativePath(name);
    if (native === null) {
      throw new Error(platformPackage() + ' is not installed: ' + missingHelp());
    }
    const to = path.join(__dirname, 'bin', name);
    if (!isScript(to)) {
      continue;
    }
    // Renamed over the launcher, so that no reader ever finds a half
    // written file: a hook may run while npm updates lucid.
    const tmp = to + '.' + process.pid + '.tmp';
    if (name === 'lucid') {
      // lucid, which every hook runs, is written anew in one write rather
      // than linked: npm's unpacking writes a file in small pieces, which
      // the page cache keeps so, and that file starts some 0.2 ms (15%)
      // slower until the cache drops it (make bench, npm section).
      fs.writeFileSync(tmp, fs.readFileSync(native), { mode: 0o755 });
    } else {
      try {
        fs.linkSync(native, tmp);
      } catch {
        fs.copyFileSync(native, tmp);
        fs.chmodSync(tmp, 0o755);
      }
    }
    try {
      fs.renameSync(tmp, to);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    done.push(name);
  }
  if (done.length === 0) {
    return 'the native binaries are in place';
  }
  return done.join(' and ') + ' on PATH ' + (done.length > 1 ? 'are' : 'is') + ' now the native binary of ' + platformPackage();
}

function missingHelp() {
  return 'npm installs it as an optional dependency; install again without --omit=optional or --no-optional ' +
    '(lucid has binaries for linux, darwin and win32 on x64 and arm64; this is ' + process.platform + '-' + process.arch + ')';
}

if (require.main === module) {
  try {
    console.log('lucid: ' + replaceLaunchers());
  } catch (e) {
    // Not fatal: the launcher runs the binary, and tries again.
    console.warn('lucid: ' + (e && e.message ? e.message : e));
  }
}

module.exports = { names, platformPackage, nativePath, isScript, replaceLaunchers, missingHelp };
