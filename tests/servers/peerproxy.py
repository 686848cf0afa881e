#!/usr/bin/env python3
# tests/servers/peerproxy.py DIR LISTEN=TARGET... -- the etcd members' peer
# traffic on one machine, through one proxy that can cut a member off: each
# member advertises a peer port this proxy listens on (LISTEN) and forwards
# to the member's own (TARGET). etcd's peer connections name the member
# that opened them (the X-Server-From header of their first request), so a
# connection involves two members: the one behind the port and the one
# that dialled. While DIR/isolate names a member ("e3", its id from
# DIR/members, lines "NAME ID"), every connection involving it is closed
# and refused: a partition of that member from the others, both ways,
# with its client port still open (so its serializable reads are served,
# stale). An empty or missing DIR/isolate heals it.
import os
import socket
import sys
import threading
import time

DIR = sys.argv[1]
ROUTES = [tuple(int(x) for x in a.split("=")) for a in sys.argv[2:]]  # (listen, target)
lock = threading.Lock()
conns = []  # (member behind the port, member that dialled or None, [sockets])


def isolated():
    """The id and port of the member DIR/isolate names, or None."""
    try:
        name = open(os.path.join(DIR, "isolate")).read().strip()
        if not name:
            return None
        for line in open(os.path.join(DIR, "members")):
            n, mid, port = line.split()
            if n == name:
                return mid, int(port)
    except OSError:
        return None
    return None


def cut(route_port, src):
    iso = isolated()
    return iso is not None and (iso[1] == route_port or iso[0] == src)


def pump(a, b):
    """a's bytes to b until either end goes; then both are shut and a closed
    (the other direction's pump closes b)."""
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    a.close()


def sender(head):
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"x-server-from:"):
            return line.split(b":", 1)[1].strip().decode()
    return None


def serve(client, listen, target):
    head = b""
    client.settimeout(5)
    try:
        while b"\r\n\r\n" not in head and len(head) < 65536:
            data = client.recv(65536)
            if not data:
                break
            head += data
    except OSError:
        client.close()
        return
    client.settimeout(None)
    src = sender(head)
    if cut(listen, src):
        client.close()
        return
    try:
        up = socket.create_connection(("127.0.0.1", target))
        up.sendall(head)
    except OSError:
        client.close()
        return
    with lock:
        conns.append((listen, src, [client, up]))
    threading.Thread(target=pump, args=(client, up), daemon=True).start()
    threading.Thread(target=pump, args=(up, client), daemon=True).start()


def listener(listen, target):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", listen))
    s.listen(128)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, listen, target), daemon=True).start()


def reaper():
    """Close the connections a new isolation cuts, ten times a second."""
    while True:
        time.sleep(0.1)
        with lock:
            keep = []
            for entry in conns:
                listen, src, socks = entry
                if cut(listen, src):
                    for s in socks:  # the pumps wake and close them
                        try:
                            s.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                elif socks[0].fileno() >= 0:
                    keep.append(entry)
            conns[:] = keep


for listen, target in ROUTES:
    threading.Thread(target=listener, args=(listen, target), daemon=True).start()
reaper()
