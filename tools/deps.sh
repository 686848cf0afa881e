#!/bin/sh
# tools/deps.sh [--optional WHAT] PKG...: installs the Debian packages
# named, when missing (the Makefile names them: BASE_PKGS for the build,
# SERVER_PKGS and BROWSER_PKGS for the tests that need servers and a
# browser, CLANG_PKGS for clang's sanitizers and libFuzzer), one visible
# step at a time: what is missing, then apt-get's update and install
# (--no-install-recommends), each with its time; apt-get's own output is
# kept in a log and printed only when it fails. Without root, or on a
# machine without apt-get, it installs nothing: it names what is missing
# and fails, unless --optional says what the packages are for, in which
# case it says which tests will be skipped and succeeds.
optional=""
if [ "${1:-}" = --optional ]; then optional=$2; shift 2; fi
need=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    why="not root"; [ "$(id -u)" = 0 ] && why="no apt-get"
    if [ -n "$optional" ]; then
        echo "deps: missing$need ($why: not installed); $optional will say skipped" >&2
        exit 0
    fi
    echo "deps: missing$need ($why: install them, or run make as root on Debian)" >&2
    exit 1
fi
log=$(mktemp /tmp/isolde-deps.XXXXXX)
trap 'rm -f "$log"' EXIT
step() { # WHAT COMMAND...: one line saying what, then how long it took
    printf 'deps: %s ... ' "$1"; shift
    t0=$(date +%s)
    if "$@" >"$log" 2>&1; then echo "done ($(( $(date +%s) - t0 )) s)"; return 0; fi
    echo "FAILED"; tail -n 30 "$log" >&2; return 1
}
export DEBIAN_FRONTEND=noninteractive
n=$(echo $need | wc -w)
echo "deps: installing $n missing package(s) with apt-get:$need"
# An empty package list (a container image, a bare debootstrap) needs an update first.
step "apt-get update" apt-get update -q || exit 1
step "apt-get install ($n packages and what they depend on; minutes for the servers and chromium)" \
    apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends $need || exit 1
