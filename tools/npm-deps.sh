#!/bin/sh
# tools/npm-deps.sh [--optional]: npm's playwright-core for the browser tests
# (tests/browser/package-lock.json: npm ci, which never downloads a browser;
# Debian's chromium is the browser). Debian 12's nodejs comes without npm:
# as root on Debian, Debian's npm is installed first. Without node, or
# without npm and root, it says what is missing and why, and fails -- or,
# with --optional (make check), says the browser tests will be skipped.
dir=tests/browser
[ -d "$dir/node_modules/playwright-core" ] && exit 0
missing() { # WHY
    if [ "${optional:-}" = yes ]; then echo "npm-deps: $1; the browser tests (t6100) will say skipped" >&2; exit 0; fi
    echo "npm-deps: $1" >&2; exit 1
}
[ "${1:-}" = --optional ] && optional=yes
command -v node >/dev/null || missing "no node (apt-get install nodejs chromium)"
if ! command -v npm >/dev/null; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
        missing "node has no npm (Debian's nodejs ships without it): apt-get install npm as root"
    sh tools/deps.sh npm || missing "installing Debian's npm failed"
fi
printf 'npm-deps: npm ci in %s (playwright-core, no browser download) ... ' "$dir"
out=$(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error 2>&1) || { echo FAILED; echo "$out" >&2; missing "npm ci failed"; }
echo done
