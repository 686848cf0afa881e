#!/bin/sh
# Installs the Debian packages the build needs, when missing, and those
# named as arguments (make check and sanitize: the database servers the
# driver tests start and their client libraries; make fuzz and
# sanitize-clang: clang and its sanitizer and libFuzzer runtime).
need=""
for p in build-essential pkg-config libcmocka-dev libsqlite3-dev zlib1g-dev python3 "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing packages:$need (run as root, or install them)" >&2; exit 1
fi
echo "installing:$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq $need >/dev/null
