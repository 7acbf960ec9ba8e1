#!/bin/sh
# Installs lucid and lucid-view from a release, without Go:
#
#   curl -fsSL https://github.com/lucid-dev/lucid/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | sh -s -- --version v1.2.3 --prefix /usr/local/bin
#
# It picks the archive for this machine (uname), checks it against the
# release's SHA256SUMS, and puts both binaries in ~/.local/bin (or --prefix),
# each replacing the one there by a rename, so that a hook running during the
# install finds the old binary or the new one, never half of one.
#
# Where releases come from: GitHub's releases of lucid-dev/lucid, or
# LUCID_INSTALL_BASE, a folder URL holding a folder per release named by its
# tag (BASE/v1.2.3/) and BASE/latest/ for the newest, each holding what make
# dist wrote to dist/ as it is (the archives and SHA256SUMS).
#
# Needs: curl or wget, sha256sum or shasum, tar and gzip.
set -eu

releases=https://github.com/lucid-dev/lucid/releases
prefix=${HOME:?HOME is not set}/.local/bin
version=
tmp=
staged=

say() { printf '%s\n' "$*"; }
# die prints its one-line reason and stops, before anything was installed
# unless the reason says otherwise.
die() {
	printf 'lucid install: %s\n' "$*" >&2
	exit 1
}

usage() {
	cat <<'EOF'
usage: install.sh [--version vX.Y.Z] [--prefix DIR]

Installs lucid and lucid-view into ~/.local/bin, or DIR.
  --version vX.Y.Z  that release rather than the latest
  --prefix DIR      the folder to put the binaries in
LUCID_INSTALL_BASE=URL downloads from URL/vX.Y.Z/ or URL/latest/ instead of GitHub.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--version | --prefix)
		[ $# -ge 2 ] || die "$1 needs a value (see --help)"
		if [ "$1" = --version ]; then version=$2; else prefix=$2; fi
		shift 2
		;;
	--version=*) version=${1#*=} && shift ;;
	--prefix=*) prefix=${1#*=} && shift ;;
	-h | --help) usage && exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done

case $version in
'') ;;
v[0-9]*) ;;
[0-9]*) version=v$version ;;
*) die "--version takes a release tag such as v1.2.3, not $version" ;;
esac
[ -n "$prefix" ] || die "--prefix needs a folder"
case $prefix in
/*) ;;
*) prefix=$(pwd)/$prefix ;;
esac
while [ "$prefix" != / ] && [ "${prefix%/}" != "$prefix" ]; do prefix=${prefix%/}; done

# The platform, by the Go names that the archives' names use.
os=$(uname -s)
arch=$(uname -m)
case $os in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows*)
	die "install.sh installs on Linux and macOS: on Windows, unzip lucid_<version>_windows_amd64.zip (or _arm64) from $releases into a folder on PATH"
	;;
*) die "no lucid release for the OS $os: there are archives for Linux, macOS and Windows only" ;;
esac
case $arch in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64 | armv8*) arch=arm64 ;;
*) die "no lucid release for the architecture $arch: there are archives for amd64 (x86_64) and arm64 (aarch64) only" ;;
esac
# A shell under Rosetta says x86_64 on an Apple silicon Mac: the arm64
# binary is the one that runs natively there.
if [ "$os" = darwin ] && [ "$arch" = amd64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
	arch=arm64
fi

if [ -n "${LUCID_INSTALL_BASE:-}" ]; then
	base=${LUCID_INSTALL_BASE%/}/${version:-latest}
elif [ -n "$version" ]; then
	base=$releases/download/$version
else
	base=$releases/latest/download
fi

if command -v curl >/dev/null 2>&1; then
	# Quiet on failure: the script says in one line what it could not get.
	fetch() { curl -fsL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
	fetch() { wget -q -O "$2" "$1"; }
else
	die "neither curl nor wget is installed: install one, then run this again"
fi
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
	sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
	die "neither sha256sum nor shasum is installed, so the download cannot be checked"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t lucid-install)
cleanup() {
	rm -rf "$tmp"
	[ -z "$staged" ] || rm -f "$staged"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" ||
	die "cannot download $base/SHA256SUMS: is ${version:-the latest release} published there?"
# The archive is the one SHA256SUMS lists for this platform, so the script
# need not know the latest version's number to name it.
suffix=_${os}_${arch}.tar.gz
line=$(awk -v s="$suffix" '{ n = $2; sub(/^\*/, "", n) }
	n ~ /^lucid_/ && length(n) > length(s) && substr(n, length(n) - length(s) + 1) == s { print $1, n; exit }' "$tmp/SHA256SUMS")
[ -n "$line" ] || die "the release at $base has no archive for $os/$arch"
want=${line%% *}
name=${line#* }
fetch "$base/$name" "$tmp/$name" || die "cannot download $base/$name"
got=$(sha256 "$tmp/$name")
[ "$got" = "$want" ] ||
	die "$name does not match SHA256SUMS (sha256 $got, expected $want): nothing was installed"

mkdir "$tmp/x"
tar -xzf "$tmp/$name" -C "$tmp/x" || die "cannot unpack $name"
src=$tmp/x/${name%.tar.gz}
for b in lucid lucid-view; do
	[ -f "$src/$b" ] || die "$name holds no $b"
done
new=$("$src/lucid" version 2>/dev/null) || die "the downloaded lucid does not run on this machine ($os/$arch)"

mkdir -p "$prefix" || die "cannot create $prefix"
old=
if [ -x "$prefix/lucid" ]; then
	old=$("$prefix/lucid" version 2>/dev/null || echo "a lucid that does not run")
fi
# Each binary is copied next to its destination first, then renamed over
# it: a rename within one folder is atomic, a copy over a running binary
# is not (and fails on a busy executable).
for b in lucid lucid-view; do
	staged=$prefix/.$b.install.$$
	cp "$src/$b" "$staged" || die "cannot write to $prefix"
	chmod 755 "$staged"
	mv -f "$staged" "$prefix/$b" || die "cannot replace $prefix/$b"
	staged=
done

if [ -z "$old" ]; then
	say "Installed lucid and lucid-view in $prefix: $new"
elif [ "$old" = "$new" ]; then
	say "Reinstalled lucid and lucid-view in $prefix: $new"
else
	say "Replaced lucid and lucid-view in $prefix:"
	say "    was $old"
	say "    now $new"
fi
case :$PATH: in
*:"$prefix":* | *:"$prefix/":*)
	found=$(command -v lucid 2>/dev/null || true)
	if [ -n "$found" ] && [ "$found" != "$prefix/lucid" ]; then
		say "Note: $found comes first on PATH and is the one that will run: remove it, or put $prefix before its folder."
	fi
	;;
*)
	say "Note: $prefix is not on PATH: add it, e.g. with this line in ~/.profile (or your shell's rc file):"
	say "    export PATH=\"$prefix:\$PATH\""
	;;
esac
say "Next, in a git repository:"
say "    lucid init      # the plan, the log and the hooks of the agents' clients"
say "    lucid doctor    # checks the set-up"
