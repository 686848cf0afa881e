/*
 * nemesis/proxy.h -- isolde's TCP fault proxy: one listening socket per
 * link, each forwarding to a target, on one thread (poll), with three
 * faults it can put on links: cut (a partition: the links between two
 * groups of nodes stall, their new connections are refused), delay
 * (every byte held D ms before it is passed on) and drop (a link's open
 * connections closed mid-stream, with a reset).
 *
 *   proxy.c      links, connections, the poll loop, the thread, the
 *                public isolde_proxy_* calls
 *   proxy_cmd.c  the command language (cut, heal, delay, drop, status),
 *                spoken by control connections, standard input and the
 *                nemesis kinds alike, and a client for a remote proxy
 *
 * A link joins two nodes by name: a connection made through it comes from
 * node `from` and goes to node `to` (clients' links come from "clients").
 * An address is [NETNS/]HOST:PORT: a socket can be made inside a network
 * namespace (/run/netns/NETNS), so that nodes each in their own namespace
 * reach each other only through the proxy.
 *
 * Invariant: all state is under p->mu; the loop never blocks on a
 * connection's socket (every one is non-blocking) and holds at most
 * PX_BUF bytes per direction of a connection, so a stalled or slow side
 * costs memory bounded by the connections, never by the bytes sent. The
 * same for control connections: their replies wait in a buffer, written
 * as the client takes them, and a client that leaves PX_CTL_OUT bytes
 * unread is disconnected before its next command runs.
 */
#ifndef ISO_NEMESIS_PROXY_H
#define ISO_NEMESIS_PROXY_H

#include <pthread.h>
#include <signal.h>
#include "core/core.h"

#define PX_BUF 65536     /* bytes held per direction of a connection */
#define PX_CHUNKS 64     /* reads in flight per direction (their due times) */
#define PX_NODES 32      /* node names a proxy knows */
#define PX_LINE 1024     /* bytes of a command line and its newline */
#define PX_CTL_OUT 65536 /* bytes of replies a control client may leave unread; past them it is disconnected */
#define PX_ACCEPT_REST 100 /* ms the listeners rest when accept finds no descriptor left */

typedef struct px_addr {
    char netns[64];      /* "" for the proxy's own namespace */
    char host[64];
    int port;
} px_addr;

typedef struct px_link {
    int from, to;        /* node ids */
    px_addr listen, target;
    int fd;              /* the listening socket */
    long delay_ms;
    long accepted, refused;
} px_link;

/* One direction of a connection: bytes read from one side, waiting to be
 * written to the other, in reads each due at a time. */
typedef struct px_dir {
    char *buf;
    size_t off, len;                 /* unsent bytes are buf[off, len) */
    struct { size_t end; int64_t due; } q[PX_CHUNKS];
    int qh, qn;                      /* the reads in buf, oldest first */
    int eof;                         /* the source side ended */
    int shut;                        /* the other side was told so */
} px_dir;

typedef struct px_conn {
    int link;
    int fd[2];           /* 0: the side that connected to us; 1: the target */
    int connecting;      /* fd[1]'s connect is under way */
    int drop;            /* close at the next turn, with a reset */
    px_dir d[2];         /* d[0]: fd[0] -> fd[1] */
} px_conn;

/* A control connection, or the CLI's standard input and output: lines
 * in, a reply line out for each. */
typedef struct px_ctl {
    int in, out;         /* a control connection (in == out) or stdin/stdout; in -1: gone */
    int sock;            /* out is a socket of ours (non-blocking), not a caller's descriptor */
    char line[PX_LINE];
    size_t n;
    int skip;            /* the line under way is too long: dropped up to its newline */
    int eof;             /* in ended: gone once its replies are written */
    iso_buf replies;     /* the reply lines not yet written: from sent on */
    size_t sent;
} px_ctl;

typedef struct nem_proxy {
    pthread_mutex_t mu;
    char *names[PX_NODES];
    int n_names;
    uint32_t cut[PX_NODES];  /* cut[a] bit b: links between a and b stall */
    px_link *links;
    size_t n_links, cap_links;
    px_conn **conns;
    size_t n_conns, cap_conns;
    px_ctl *ctls;
    size_t n_ctls, cap_ctls;
    int ctl_fd;              /* the control listener, or -1 */
    int64_t accept_after;    /* ms: no listener is polled before (accept had no descriptor) */
    int wake[2];             /* a byte here wakes the loop */
    int quit;
    pthread_t tid;
    int running;
    struct iso_guard *guard;
} nem_proxy;

/* A proxy with no link; -1 with err when its wake pipe cannot be made. */
int nem_proxy_new(nem_proxy **out, isolde_error *err);
void nem_proxy_free(nem_proxy *p);
/* Listen at listen (port 0: any free one) for connections from node
 * from to node to, forwarded to target; the port in *port. */
int nem_proxy_link(nem_proxy *p, const char *from, const char *to, const char *listen, const char *target,
                   int *port, isolde_error *err);
/* A link from "[FROM>TO@]LISTEN=TARGET" (isolde_proxy_link). */
int nem_proxy_link_spec(nem_proxy *p, const char *spec, int *port, isolde_error *err);
/* Take commands on connections to addr (HOST:PORT), one per line. */
int nem_proxy_control(nem_proxy *p, const char *addr, int *port, isolde_error *err);
/* Take commands from in, replies to out (the CLI's stdin and stdout). */
void nem_proxy_control_fds(nem_proxy *p, int in, int out);
/* The loop, in the calling thread, until *stop (may be NULL), a quit
 * command, or nem_proxy_halt. */
void nem_proxy_loop(nem_proxy *p, const volatile sig_atomic_t *stop);
/* The loop on a thread of its own (under the caller's guard); stop ends
 * it and joins. */
int nem_proxy_start(nem_proxy *p, isolde_error *err);
void nem_proxy_stop(nem_proxy *p);
/* Wake the loop (after a change of state). */
void nem_proxy_wake(nem_proxy *p);

/* ---- proxy_cmd.c ---- */

/* Run one command line (thread-safe: takes p->mu); its reply (one line,
 * "ok ..." or "error ...", no newline) into reply. 1 when the line was
 * quit, else 0. */
int nem_proxy_command(nem_proxy *p, const char *line, iso_buf *reply);
/* The command run while p->mu is held (the loop's control connections). */
int nem_proxy_command_locked(nem_proxy *p, const char *line, iso_buf *reply);
/* The same line sent to the proxy whose control listens at addr, its
 * reply into reply; -1 when it cannot be reached or closes without a
 * reply (reply says why). */
int nem_proxy_remote(const char *addr, const char *line, iso_buf *reply);
/* A node's id (added when new); -1 when PX_NODES are known. */
int nem_proxy_node(nem_proxy *p, const char *name);
/* "[NETNS/]HOST:PORT" taken apart; -1 when it is not one. */
int px_addr_parse(const char *s, px_addr *a);
/* Whether link l is cut now. */
int px_link_cut(const nem_proxy *p, const px_link *l);

#endif
