#!/bin/sh
# isolde serve DIR (issue 14: the playground over http): files under DIR
# with their content types (application/wasm among them), HEAD, 404 and
# 405; nothing outside DIR, whether asked with "..", an encoded "..", or a
# symbolic link leading out; a client that sends nothing delays no other,
# and one that trickles its request is dropped after the deadline (5 s);
# a head over 8 KiB is 431; SIGINT and SIGTERM stop it with exit 0; a
# missing directory or a taken port is an error (exit 3). Issue 23: only a
# request for 127.0.0.1:PORT or localhost:PORT is answered (DNS
# rebinding: 421); no dotfile, nothing under a dot directory; a FIFO pins
# no thread; 64 clients that read the response a little at a time are
# dropped at the least rate, and then others are served again. Needs curl
# and python3 (make check installs them; skipped without).
. tests/clilib.sh "$@"

if ! command -v curl >/dev/null; then
    if [ "${CI:-}" = true ]; then test_case "CI=true has curl" "false"
    else test_skip "isolde serve" "no curl (apt-get install curl)"; fi
    finish
fi

www=$tmp/www
mkdir -p "$www/sub" "$www/empty"
printf '<p>hello</p>\n' >"$www/index.html"
printf 'nested\n' >"$www/sub/index.html"
printf '\000asm\001\000\000\000' >"$www/mod.wasm"
printf 'spaced\n' >"$www/a b.txt"
printf 'outside\n' >"$tmp/secret.txt"
ln -s "$tmp/secret.txt" "$www/link.txt"
mkdir -p "$www/.git" "$www/sub/.cache"
printf 'hidden\n' >"$www/.git/config"
printf 'hidden\n' >"$www/.env"
printf 'hidden\n' >"$www/sub/.cache/index.html"
ln -s .git/config "$www/innocent.txt"
mkfifo "$www/pipe.txt"

# start DIR: isolde serve on a free port in the background; sets $pid, $url
# once it says it listens (up to 30 s: a loaded machine starts it late).
start() {
    "$isolde" serve "$1" --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
    pid=$!
    for _ in $(seq 300); do grep -q '^isolde serve: http' "$tmp/serve.out" && break; sleep 0.1; done
    url=$(sed -n 's/^isolde serve: \(http:[^ ]*\) .*/\1/p' "$tmp/serve.out")
}
start "$www"

test_case "it says where it listens, on 127.0.0.1 only" <<'T'
echo "$url" | grep -q '^http://127\.0\.0\.1:[0-9][0-9]*/$'
T

test_case "/ serves index.html, whole, as text/html" <<'T'
curl -s -D "$tmp/h" -o "$tmp/b" "$url"
grep -q '^HTTP/1.1 200' "$tmp/h"
grep -qi '^content-type: text/html; charset=utf-8' "$tmp/h"
grep -qi '^content-length: 13' "$tmp/h"
printf '<p>hello</p>\n' | cmp - "$tmp/b"
T

test_case "a .wasm file is application/wasm, byte for byte" <<'T'
curl -s -D "$tmp/h" -o "$tmp/b" "${url}mod.wasm"
grep -qi '^content-type: application/wasm' "$tmp/h"
cmp "$www/mod.wasm" "$tmp/b"
T

test_case "HEAD gives the headers and no body" <<'T'
curl -s -I -o "$tmp/h" "${url}index.html"
grep -qi '^content-length: 13' "$tmp/h"
python3 - "$url" >"$tmp/raw" <<'PY'
import socket, sys
host, port = sys.argv[1].split("/")[2].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"HEAD /index.html HTTP/1.0\r\n\r\n")
data = b""
while True:
    b = s.recv(4096)
    if not b: break
    data += b
head, _, body = data.partition(b"\r\n\r\n")
print(head.decode().splitlines()[0], len(body))
PY
grep -qx 'HTTP/1.1 200 OK 0' "$tmp/raw"
T

test_case "a percent-encoded name and a directory's index.html" <<'T'
curl -s -o "$tmp/b" "${url}a%20b.txt"
grep -qx spaced "$tmp/b"
curl -s -o "$tmp/b" "${url}sub/"
grep -qx nested "$tmp/b"
T

test_case "nothing outside DIR: .., encoded .., a symbolic link out" <<'T'
for p in /../secret.txt /%2e%2e/secret.txt /sub/%2E%2E/%2e%2e/secret.txt /..%2fsecret.txt /link.txt /sub/..%5c..%5csecret.txt; do
    c=$(curl -s -o "$tmp/b" -w '%{http_code}' --path-as-is "${url%/}$p")
    case $c in 403|404|400) ;; *) echo "$p: $c"; false ;; esac
    not grep -q outside "$tmp/b"
done
T

test_case "only 127.0.0.1:PORT and localhost:PORT are answered (DNS rebinding: 421)" <<'T'
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\//\1/')
for h in "localhost:$port" "LocalHost:$port" "127.0.0.1:$port"; do
    test "$(curl -s -o "$tmp/b" -w '%{http_code}' -H "Host: $h" "$url")" = 200
done
for h in "evil.example:$port" "evil.example" "127.0.0.1:$((port + 1))" "127.0.0.1" "[::1]:$port" \
         "localhost.:$port" "127.0.0.1:$port.evil.example"; do
    c=$(curl -s -o "$tmp/b" -w '%{http_code}' -H "Host: $h" "$url")
    test "$c" = 421 || { echo "$h: $c"; false; }
    not grep -q hello "$tmp/b"
done
T

test_case "HTTP/1.1 needs one Host (400), HTTP/1.0 may have none; a HEAD refused has no body" <<'T'
python3 - "$url" >"$tmp/raw" <<'PY'
import socket, sys
host, port = sys.argv[1].split("/")[2].split(":")
ours = b"Host: 127.0.0.1:" + port.encode() + b"\r\n"
for req in [b"GET / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.0\r\n\r\n",
            b"GET / HTTP/1.1\r\n" + ours + b"Host: evil.example\r\n\r\n",
            b"GET / HTTP/1.1\r\nX-Note: a\r\n\r\n" + ours + b"\r\n",
            b"GET / HTTP/9.9\r\n" + ours + b"\r\n", b"HEAD / HTTP/1.1\r\nHost: evil.example\r\n\r\n"]:
    s = socket.create_connection((host, int(port)))
    s.sendall(req)
    data = b""
    while True:
        b = s.recv(4096)
        if not b: break
        data += b
    head, _, body = data.partition(b"\r\n\r\n")
    print(head.decode().splitlines()[0], len(body))
PY
cat >"$tmp/want" <<'EOF'
HTTP/1.1 400 Bad Request 16
HTTP/1.1 200 OK 13
HTTP/1.1 400 Bad Request 16
HTTP/1.1 400 Bad Request 16
HTTP/1.1 400 Bad Request 16
HTTP/1.1 421 Misdirected Request 0
EOF
diff "$tmp/want" "$tmp/raw"
T

test_case "no dotfile, nothing under a dot directory, no link to one" <<'T'
for p in /.git/config /%2egit/config /.env /sub/.cache/ /sub/.cache/index.html /innocent.txt /.git/ /./index.html; do
    c=$(curl -s -o "$tmp/b" -w '%{http_code}' --path-as-is "${url%/}$p")
    test "$c" = 403 || { echo "$p: $c"; false; }
    not grep -q hidden "$tmp/b"
done
T

test_case "a FIFO is never opened: 70 requests for it are 404, none pins a thread" <<'T'
python3 - "$url" >"$tmp/raw" <<'PY'
import socket, sys
host, port = sys.argv[1].split("/")[2].split(":")
def get(path):
    s = socket.create_connection((host, int(port)), timeout=5)
    s.sendall(b"GET " + path + b" HTTP/1.0\r\n\r\n")
    try:
        return s.recv(4096).decode().splitlines()[0]
    except socket.timeout:
        return "no answer"
codes = set()
for _ in range(70):
    codes.add(get(b"/pipe.txt"))
    if "no answer" in codes:
        break
print(sorted(codes), get(b"/index.html"))
PY
grep -qx "\['HTTP/1.1 404 Not Found'\] HTTP/1.1 200 OK" "$tmp/raw"
T

test_case "64 clients that read a little at a time are dropped, then others are served" <<'T'
truncate -s 1G "$www/big.bin"
python3 - "$url" >"$tmp/raw" <<'PY'
import socket, sys, time
host, port = sys.argv[1].split("/")[2].split(":")
def status():
    s = socket.create_connection((host, int(port)), timeout=10)
    s.sendall(b"GET /index.html HTTP/1.0\r\n\r\n")
    return s.recv(4096).decode().split(" ")[1]
readers = []
for _ in range(64):  # each has the head: every thread of the server is busy
    s = socket.create_connection((host, int(port)), timeout=10)
    s.sendall(b"GET /big.bin HTTP/1.0\r\n\r\n")
    s.recv(65536)
    s.setblocking(False)
    readers.append(s)
print("full", status())
t0 = time.monotonic()
while time.monotonic() - t0 < 40:  # ~400 KiB/s each: never stalled, yet under 1 MiB/s
    time.sleep(0.25)
    for s in readers:
        try:
            s.recv(102400)
        except (BlockingIOError, ConnectionError):
            pass
    code = status()
    if code == "200":
        break
print("then", code)
PY
printf 'full 503\nthen 200\n' | diff - "$tmp/raw"
rm "$www/big.bin"
T

test_case "a missing file is 404, a directory without index.html too, POST is 405" <<'T'
test "$(curl -s -o /dev/null -w '%{http_code}' "${url}nope.js")" = 404
test "$(curl -s -o /dev/null -w '%{http_code}' "${url}empty/")" = 404
test "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${url}")" = 405
T

test_case "a client that sends nothing does not hold up the next request" <<'T'
python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); time.sleep(3)' "$(echo "$url" | sed 's/.*:\([0-9]*\)\//\1/')" &
sleep 0.3
test "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "${url}index.html")" = 200
wait
T

test_case "a client that trickles its request a byte at a time is dropped at the deadline" <<'T'
python3 - "$url" >"$tmp/took" <<'PY'
import socket, sys, time
host, port = sys.argv[1].split("/")[2].split(":")
s = socket.create_connection((host, int(port)))
t0 = time.monotonic()
try:
    for b in b"GET /index.html HTTP/1.0\r\nX-Slow: " + b"a" * 100:
        s.send(bytes([b]))
        time.sleep(0.25)
        if time.monotonic() - t0 > 12: break
except OSError:
    pass
print("%.0f" % (time.monotonic() - t0))
PY
took=$(cat "$tmp/took")
test "$took" -ge 4
test "$took" -le 8
test "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "${url}index.html")" = 200
T

test_case "a request head over 8 KiB is 431" <<'T'
python3 - "$url" >"$tmp/raw" <<'PY'
import socket, sys
host, port = sys.argv[1].split("/")[2].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"GET / HTTP/1.0\r\nX-Big: " + b"a" * 9000)
print(s.recv(4096).decode().splitlines()[0])
PY
grep -q '^HTTP/1.1 431' "$tmp/raw"
T

test_case "the access log shows a control byte of a path as ?, never raw" <<'T'
python3 - "$url" <<'PY'
import socket, sys
host, port = sys.argv[1].split("/")[2].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"GET /x\x1b[31mred HTTP/1.0\r\n\r\n")
s.recv(4096)
PY
for _ in $(seq 100); do if grep -q 'red 404$' "$tmp/serve.err"; then break; fi; sleep 0.1; done # (logged after the answer)
grep -q '^isolde serve: GET /x?\[31mred 404$' "$tmp/serve.err"
not grep -q "$(printf '\033')" "$tmp/serve.err"
T

test_case "a directory that is not there is an error (exit 3)" <<'T'
expect_status 3 "$isolde" serve "$tmp/none" --port 0
expect_err 'not a directory'
T

test_case "a port already taken is an error (exit 3)" <<'T'
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\//\1/')
expect_status 3 "$isolde" serve "$www" --port "$port"
expect_err 'cannot listen'
T

# (here, not in a case: the server must be this shell's child to wait for it)
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
test_case "SIGINT stops it, exit 0" "test $rc = 0"

# DIR / (every real path is under it), then SIGTERM.
start /
test_case "DIR / serves what lies under it" <<'T'
curl -s -o "$tmp/b" "${url%/}$www/a%20b.txt"
grep -qx spaced "$tmp/b"
T
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
test_case "SIGTERM stops it, exit 0" "test $rc = 0"

# The playground's own directory, when it was made (make playground).
if [ -f web/index.html ] && [ -f web/isolde-wasm.js ]; then
    start web
    test_case "web/: the playground's page and its checker" <<'T'
test "$(curl -s -o /dev/null -w '%{http_code}' "$url")" = 200
curl -s -D "$tmp/h" -o "$tmp/b" "${url}isolde-wasm.js"
grep -qi '^content-type: text/javascript' "$tmp/h"
cmp web/isolde-wasm.js "$tmp/b"
T
    kill -INT "$pid"
    wait "$pid"
else
    test_skip "web/ served" "no web/isolde-wasm.js (make playground)"
fi
finish
