#!/bin/sh
# Installs the Debian packages named as arguments, when missing (the
# Makefile names them: BASE_PKGS for the build, SERVER_PKGS for the
# driver tests, CLANG_PKGS for clang's sanitizers and libFuzzer).
need=""
for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing packages:$need (run as root, or install them)" >&2; exit 1
fi
echo "installing:$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq $need >/dev/null
