/*
 * nemesis/proxy.c -- the fault proxy's data path (proxy.h): listening
 * sockets, connections forwarded byte for byte through two fixed buffers,
 * the poll loop that moves them, and the public isolde_proxy_* calls.
 *
 * A connection accepted on a cut link is closed at once (refused); one
 * that is open when its link is cut neither reads nor writes until the cut
 * is healed (it stalls, as behind a partition that drops packets). A
 * delayed link stamps each read with a due time and writes its bytes only
 * then. A control connection's replies wait in a buffer until it takes
 * them (the loop never waits on it). When accept finds no descriptor
 * left, the listeners rest PX_ACCEPT_REST ms (their pending connection
 * stays readable: polled again at once, they would spin). The invariant:
 * a direction's bytes leave in the order they came, none is lost unless
 * its connection is closed, and the loop allocates only when a connection
 * or a control connection is opened or a command runs (its reply, held
 * to PX_CTL_OUT bytes and one reply per control connection).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "nemesis/proxy.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A non-blocking TCP socket made inside netns ("": ours); -1 with errno. */
static int socket_in(const char *netns)
{
    if (!netns[0]) return socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    char path[128];
    snprintf(path, sizeof path, "/run/netns/%s", netns);
    int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC), ns = open(path, O_RDONLY | O_CLOEXEC);
    int fd = -1, e = 0;
    if (self >= 0 && ns >= 0 && setns(ns, CLONE_NEWNET) == 0) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        e = errno;
        if (setns(self, CLONE_NEWNET) != 0 && fd >= 0) { /* cannot get back: give up the socket */
            close(fd);
            fd = -1;
        }
    } else {
        e = errno;
    }
    if (self >= 0) close(self);
    if (ns >= 0) close(ns);
    errno = e;
    return fd;
}

static void sockaddr_of(const px_addr *a, struct sockaddr_in *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)a->port);
    inet_pton(AF_INET, strcmp(a->host, "localhost") == 0 ? "127.0.0.1" : a->host, &sa->sin_addr);
}

/* A listening socket at a; its port in *port. */
static int listen_at(const px_addr *a, int *port, isolde_error *err)
{
    struct sockaddr_in sa;
    sockaddr_of(a, &sa);
    int fd = socket_in(a->netns), one = 1;
    if (fd < 0)
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot make a socket%s%s: %s", a->netns[0] ? " in " : "",
                        a->netns, strerror(errno));
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t n = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &n) != 0) {
        int e = errno;
        close(fd);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot listen at %s:%d: %s", a->host, a->port, strerror(e));
    }
    *port = ntohs(sa.sin_port);
    return fd;
}

int nem_proxy_new(nem_proxy **out, isolde_error *err)
{
    nem_proxy *p = iso_xcalloc(1, sizeof *p);
    p->ctl_fd = -1;
    if (pipe2(p->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        iso_free(p);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot make a pipe: %s", strerror(errno));
    }
    pthread_mutex_init(&p->mu, NULL);
    nem_proxy_node(p, "clients");
    *out = p;
    return 0;
}

int nem_proxy_link(nem_proxy *p, const char *from, const char *to, const char *listen, const char *target,
                   int *port, isolde_error *err)
{
    px_link l = {.delay_ms = 0};
    if (!from[0] || !to[0]) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "a link needs the nodes it joins");
    if (px_addr_parse(listen, &l.listen) < 0 || px_addr_parse(target, &l.target) < 0 || !l.target.port)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "not an address [NETNS/]HOST:PORT: '%s' or '%s'",
                        listen, target);
    pthread_mutex_lock(&p->mu);
    l.from = nem_proxy_node(p, from);
    l.to = nem_proxy_node(p, to);
    pthread_mutex_unlock(&p->mu);
    if (l.from < 0 || l.to < 0) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "too many node names");
    if ((l.fd = listen_at(&l.listen, port, err)) < 0) return -1;
    l.listen.port = *port;
    pthread_mutex_lock(&p->mu);
    iso_grow_for((void **)&p->links, &p->cap_links, p->n_links + 1, sizeof *p->links, p);
    p->links[p->n_links++] = l;
    pthread_mutex_unlock(&p->mu);
    nem_proxy_wake(p);
    return 0;
}

int nem_proxy_control(nem_proxy *p, const char *addr, int *port, isolde_error *err)
{
    px_addr a;
    if (px_addr_parse(addr, &a) < 0)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "not an address HOST:PORT: '%s'", addr);
    p->ctl_fd = listen_at(&a, port, err);
    return p->ctl_fd < 0 ? -1 : 0;
}

static void add_ctl(nem_proxy *p, int in, int out, int sock)
{
    iso_grow_for((void **)&p->ctls, &p->cap_ctls, p->n_ctls + 1, sizeof *p->ctls, p);
    p->ctls[p->n_ctls++] = (px_ctl){.in = in, .out = out, .sock = sock};
}

void nem_proxy_control_fds(nem_proxy *p, int in, int out) { add_ctl(p, in, out, 0); }

/* After an accept on a listener failed: when for want of a descriptor
 * (or of memory), no listener is polled for PX_ACCEPT_REST ms. */
static void accept_failed(nem_proxy *p)
{
    if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
        p->accept_after = now_ms() + PX_ACCEPT_REST;
}

void nem_proxy_wake(nem_proxy *p)
{
    char c = 1;
    if (write(p->wake[1], &c, 1) < 0) {} /* full: the loop is awake already */
}

/* ---- connections ---- */

static void close_conn(nem_proxy *p, size_t i, int reset)
{
    px_conn *c = p->conns[i];
    struct linger lg = {1, 0};
    for (int s = 0; s < 2; s++) {
        if (c->fd[s] < 0) continue;
        if (reset) setsockopt(c->fd[s], SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(c->fd[s]);
    }
    iso_free(c->d[0].buf);
    iso_free(c->d[1].buf);
    iso_free(c);
    p->conns[i] = p->conns[--p->n_conns];
}

/* Connect a new connection's target side; -1 when it cannot even start. */
static int connect_target(px_conn *c, const px_link *l)
{
    struct sockaddr_in sa;
    sockaddr_of(&l->target, &sa);
    c->fd[1] = socket_in(l->target.netns);
    if (c->fd[1] < 0) return -1;
    int one = 1;
    setsockopt(c->fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd[1], (struct sockaddr *)&sa, sizeof sa) == 0) return 0;
    c->connecting = errno == EINPROGRESS;
    return c->connecting ? 0 : -1;
}

static void accept_on(nem_proxy *p, size_t li)
{
    px_link *l = &p->links[li];
    int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        accept_failed(p);
        return;
    }
    if (px_link_cut(p, l)) { /* refused: the far side is not reachable */
        struct linger lg = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(fd);
        l->refused++;
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    px_conn *c = iso_xcalloc(1, sizeof *c);
    iso_adopt(c, p);
    c->link = (int)li;
    c->fd[0] = fd;
    c->fd[1] = -1;
    for (int d = 0; d < 2; d++) {
        c->d[d].buf = iso_xmalloc(PX_BUF);
        iso_adopt(c->d[d].buf, p);
    }
    iso_grow_for((void **)&p->conns, &p->cap_conns, p->n_conns + 1, sizeof *p->conns, p);
    p->conns[p->n_conns++] = c;
    l->accepted++;
    if (connect_target(c, l) < 0) close_conn(p, p->n_conns - 1, 1);
}

/* The bytes of d that are due now. */
static size_t due_bytes(const px_dir *d, int64_t now)
{
    size_t end = d->off;
    for (int i = 0; i < d->qn; i++) {
        int k = (d->qh + i) % PX_CHUNKS;
        if (d->q[k].due > now) break;
        end = d->q[k].end;
    }
    return end - d->off;
}

/* Read what fits from fd into d, due delay ms from now; -1: the
 * connection failed. */
static int read_into(px_dir *d, int fd, long delay, int64_t now)
{
    if (d->off == d->len) d->off = d->len = 0;
    if (d->off > 0 && d->len == PX_BUF) { /* move the unsent bytes (and their reads) down */
        memmove(d->buf, d->buf + d->off, d->len - d->off);
        for (int i = 0; i < d->qn; i++) d->q[(d->qh + i) % PX_CHUNKS].end -= d->off;
        d->len -= d->off;
        d->off = 0;
    }
    if (d->len == PX_BUF || d->qn == PX_CHUNKS) return 0;
    ssize_t n = read(fd, d->buf + d->len, PX_BUF - d->len);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (n == 0) {
        d->eof = 1;
        return 0;
    }
    d->len += (size_t)n;
    int k = (d->qh + d->qn++) % PX_CHUNKS;
    d->q[k].end = d->len;
    d->q[k].due = now + delay;
    return 0;
}

/* Write d's due bytes to fd; -1: the connection failed. */
static int write_from(px_dir *d, int fd, int64_t now)
{
    size_t n = due_bytes(d, now);
    if (!n) return 0;
    ssize_t w = send(fd, d->buf + d->off, n, MSG_NOSIGNAL);
    if (w < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    d->off += (size_t)w;
    while (d->qn && d->q[d->qh].end <= d->off) {
        d->qh = (d->qh + 1) % PX_CHUNKS;
        d->qn--;
    }
    return 0;
}

/* ---- the loop ---- */

enum { ON_WAKE, ON_CTL_LISTEN, ON_LINK, ON_CTL, ON_CONN };

typedef struct px_poll {
    struct pollfd *fds;
    struct { int kind; size_t i; int side; } *what;
    size_t n, cap_fds, cap_what;
} px_poll;

static void want(nem_proxy *p, px_poll *pl, int fd, short ev, int kind, size_t i, int side)
{
    iso_grow_for((void **)&pl->fds, &pl->cap_fds, pl->n + 1, sizeof *pl->fds, p);
    iso_grow_for((void **)&pl->what, &pl->cap_what, pl->n + 1, sizeof *pl->what, p);
    pl->fds[pl->n] = (struct pollfd){.fd = fd, .events = ev};
    pl->what[pl->n].kind = kind;
    pl->what[pl->n].i = i;
    pl->what[pl->n++].side = side;
}

/* What connection c waits for; the earliest due time of a held read into
 * *next (ms). */
static void want_conn(nem_proxy *p, px_poll *pl, size_t i, int64_t now, int64_t *next)
{
    px_conn *c = p->conns[i];
    if (c->connecting) {
        want(p, pl, c->fd[1], POLLOUT, ON_CONN, i, 1);
        return;
    }
    if (px_link_cut(p, &p->links[c->link])) return; /* stalled */
    short ev[2] = {0, 0};
    for (int s = 0; s < 2; s++) {
        px_dir *d = &c->d[s];
        if (!d->eof && (d->len < PX_BUF || d->off > 0) && d->qn < PX_CHUNKS) ev[s] |= POLLIN;
        if (due_bytes(d, now)) ev[!s] |= POLLOUT;
        else if (d->qn && d->q[d->qh].due < *next) *next = d->q[d->qh].due;
    }
    for (int s = 0; s < 2; s++)
        if (ev[s]) want(p, pl, c->fd[s], ev[s], ON_CONN, i, s);
}

/* What control connection i waits for: its commands (until it ended),
 * room for its replies (while some are unwritten). */
static void want_ctl(nem_proxy *p, px_poll *pl, size_t i)
{
    const px_ctl *c = &p->ctls[i];
    short in = c->in >= 0 && !c->eof ? POLLIN : 0, out = c->sent < c->replies.n ? POLLOUT : 0;
    if (c->in == c->out && (in | out)) want(p, pl, c->in, in | out, ON_CTL, i, 0);
    if (c->in != c->out && in) want(p, pl, c->in, in, ON_CTL, i, 0);
    if (c->in != c->out && out) want(p, pl, c->out, out, ON_CTL, i, 1);
}

static void gather(nem_proxy *p, px_poll *pl, int64_t now, int64_t *next)
{
    pl->n = 0;
    want(p, pl, p->wake[0], POLLIN, ON_WAKE, 0, 0);
    if (now >= p->accept_after) {
        if (p->ctl_fd >= 0) want(p, pl, p->ctl_fd, POLLIN, ON_CTL_LISTEN, 0, 0);
        for (size_t i = 0; i < p->n_links; i++) want(p, pl, p->links[i].fd, POLLIN, ON_LINK, i, 0);
    } else if (p->accept_after < *next) {
        *next = p->accept_after;
    }
    for (size_t i = 0; i < p->n_ctls; i++) want_ctl(p, pl, i);
    for (size_t i = 0; i < p->n_conns; i++) want_conn(p, pl, i, now, next);
}

/* Control connection c gone: its descriptors closed (not 0, 1, 2: the
 * caller's), its unwritten replies dropped. */
static void ctl_end(px_ctl *c)
{
    if (c->in < 0) return;
    if (c->out != c->in && c->out > 2) close(c->out);
    if (c->in > 2) close(c->in);
    c->in = -1;
    iso_buf_free(&c->replies);
    c->sent = 0;
}

/* Write what c's replies can be without blocking: our sockets are
 * non-blocking; a caller's descriptor (standard output) may not be, so it
 * takes at most PIPE_BUF bytes a write, while poll says it has room (a
 * pipe then takes them whole). -1 when out failed. */
static int flush_ctl(px_ctl *c)
{
    while (c->sent < c->replies.n) {
        const char *at = c->replies.p + c->sent;
        size_t n = c->replies.n - c->sent;
        struct pollfd pf = {.fd = c->out, .events = POLLOUT};
        ssize_t w = 0;
        if (c->sock) w = send(c->out, at, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        else if (poll(&pf, 1, 0) == 1) w = write(c->out, at, n < PIPE_BUF ? n : PIPE_BUF);
        else return 0;
        if (w < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
        c->sent += (size_t)w;
    }
    c->replies.n = c->sent = 0;
    return 0;
}

/* The whole lines in c->line run as commands, each reply queued; a line
 * too long answered "error line too long". Before a command runs, a
 * client with PX_CTL_OUT bytes of replies unread is disconnected. */
static void run_lines(nem_proxy *p, px_ctl *c)
{
    iso_buf reply = {0};
    for (char *nl; c->in >= 0 && (nl = memchr(c->line, '\n', c->n));) {
        if (c->replies.n - c->sent >= PX_CTL_OUT) {
            ctl_end(c);
            break;
        }
        *nl = '\0';
        reply.n = 0;
        if (c->skip) iso_buf_puts(&reply, "error line too long");
        else if (nem_proxy_command_locked(p, c->line, &reply)) p->quit = 1;
        c->skip = 0;
        iso_buf_put(&c->replies, reply.p, reply.n);
        iso_buf_puts(&c->replies, "\n");
        c->n -= (size_t)(nl + 1 - c->line);
        memmove(c->line, nl + 1, c->n);
    }
    if (c->n == sizeof c->line - 1) { /* no newline: the rest of the line is dropped as it comes */
        c->skip = 1;
        c->n = 0;
    }
    iso_buf_free(&reply);
}

/* Control connection c after poll (side 1: its separate output): replies
 * written, commands read and run; gone when it failed, or when it ended
 * and its replies are all written. */
static void on_ctl(nem_proxy *p, px_ctl *c, int side, short rev)
{
    int bad = c->in < 0 || ((side == 1 || (rev & POLLOUT)) && flush_ctl(c) < 0);
    if (!bad && side == 0 && !c->eof && (rev & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = read(c->in, c->line + c->n, sizeof c->line - 1 - c->n);
        bad = n < 0 && errno != EAGAIN && errno != EINTR;
        c->eof = n == 0;
        if (n > 0) {
            c->n += (size_t)n;
            run_lines(p, c);
        }
    }
    if (bad || (c->eof && c->sent == c->replies.n)) ctl_end(c);
}

/* Connection i after poll: its connect finished, or bytes to move. */
static void on_conn(nem_proxy *p, size_t i, int side, short rev, int64_t now)
{
    px_conn *c = p->conns[i];
    int bad = 0;
    if (c->connecting) {
        int e = 0;
        socklen_t n = sizeof e;
        getsockopt(c->fd[1], SOL_SOCKET, SO_ERROR, &e, &n);
        c->connecting = 0;
        bad = e != 0;
    } else {
        if (rev & (POLLIN | POLLHUP | POLLERR)) bad |= read_into(&c->d[side], c->fd[side], p->links[c->link].delay_ms, now);
        if (rev & POLLOUT) bad |= write_from(&c->d[!side], c->fd[side], now);
    }
    if (bad) c->drop = 2; /* closed after this turn (2: without a reset) */
}

/* After a turn: ends passed on, finished or dropped connections and
 * ended control connections gone. */
static void settle(nem_proxy *p)
{
    size_t keep = 0;
    for (size_t i = 0; i < p->n_ctls; i++)
        if (p->ctls[i].in >= 0) p->ctls[keep++] = p->ctls[i];
    p->n_ctls = keep;
    for (size_t i = p->n_conns; i-- > 0;) {
        px_conn *c = p->conns[i];
        for (int s = 0; s < 2 && !c->connecting; s++) {
            px_dir *d = &c->d[s];
            if (d->eof && d->off == d->len && !d->shut) {
                shutdown(c->fd[!s], SHUT_WR);
                d->shut = 1;
            }
        }
        if (c->drop || (c->d[0].shut && c->d[1].shut)) close_conn(p, i, c->drop == 1);
    }
}

static void turn(nem_proxy *p, px_poll *pl, int64_t now)
{
    for (size_t k = 0; k < pl->n; k++) {
        short rev = pl->fds[k].revents;
        if (!rev) continue;
        size_t i = pl->what[k].i;
        switch (pl->what[k].kind) {
        case ON_WAKE: {
            char buf[64];
            while (read(p->wake[0], buf, sizeof buf) > 0) {}
            break;
        }
        case ON_CTL_LISTEN: {
            int fd = accept4(p->ctl_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0) add_ctl(p, fd, fd, 1);
            else accept_failed(p);
            break;
        }
        case ON_LINK: accept_on(p, i); break;
        case ON_CTL: on_ctl(p, &p->ctls[i], pl->what[k].side, rev); break;
        default:
            if (i < p->n_conns) on_conn(p, i, pl->what[k].side, rev, now);
        }
    }
    settle(p);
}

void nem_proxy_loop(nem_proxy *p, const volatile sig_atomic_t *stop)
{
    px_poll pl = {0};
    pthread_mutex_lock(&p->mu);
    while (!p->quit && !(stop && *stop)) {
        int64_t now = now_ms(), next = now + 1000;
        gather(p, &pl, now, &next);
        pthread_mutex_unlock(&p->mu);
        int timeout = (int)(next > now ? next - now : 0);
        int n = poll(pl.fds, pl.n, timeout > 200 && stop ? 200 : timeout);
        pthread_mutex_lock(&p->mu);
        if (n >= 0) turn(p, &pl, now_ms());
    }
    for (size_t i = 0; i < p->n_ctls; i++) flush_ctl(&p->ctls[i]); /* the last replies ("ok bye"), if they fit */
    pthread_mutex_unlock(&p->mu);
    iso_free(pl.fds);
    iso_free(pl.what);
}

static void loop_job(void *arg) { nem_proxy_loop(arg, NULL); }

static void *thread(void *arg)
{
    nem_proxy *p = arg;
    iso_guard_enter(p->guard, loop_job, p);
    return NULL;
}

int nem_proxy_start(nem_proxy *p, isolde_error *err)
{
    p->guard = iso_guard_current();
    p->running = pthread_create(&p->tid, NULL, thread, p) == 0;
    return p->running ? 0 : iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "cannot start the proxy thread");
}

void nem_proxy_stop(nem_proxy *p)
{
    if (!p || !p->running) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_mutex_unlock(&p->mu);
    nem_proxy_wake(p);
    pthread_join(p->tid, NULL);
    p->running = 0;
}

void nem_proxy_free(nem_proxy *p)
{
    if (!p) return;
    nem_proxy_stop(p);
    while (p->n_conns) close_conn(p, p->n_conns - 1, 0);
    for (size_t i = 0; i < p->n_links; i++) close(p->links[i].fd);
    for (size_t i = 0; i < p->n_ctls; i++) ctl_end(&p->ctls[i]);
    if (p->ctl_fd >= 0) close(p->ctl_fd);
    for (int i = 0; i < p->n_names; i++) iso_free(p->names[i]);
    close(p->wake[0]);
    close(p->wake[1]);
    pthread_mutex_destroy(&p->mu);
    iso_free(p->links);
    iso_free(p->conns);
    iso_free(p->ctls);
    iso_free(p);
}

/* ---- the public calls (isolde proxy) ---- */

struct isolde_proxy {
    nem_proxy *p;
};

static int new_call(void *arg, isolde_error *err)
{
    isolde_proxy *x = iso_xcalloc(1, sizeof *x);
    if (nem_proxy_new(&x->p, err) < 0) {
        iso_free(x);
        return -1;
    }
    *(isolde_proxy **)arg = x;
    return 0;
}

isolde_status isolde_proxy_new(isolde_proxy **out, isolde_error *err)
{
    *out = NULL;
    return iso_call(new_call, out, err);
}

struct link_call {
    isolde_proxy *x;
    const char *spec;
    int *port;
};

static int link_call(void *arg, isolde_error *err)
{
    struct link_call *c = arg;
    return c->spec ? nem_proxy_link_spec(c->x->p, c->spec, c->port, err) : 0;
}

static int control_call(void *arg, isolde_error *err)
{
    struct link_call *c = arg;
    return nem_proxy_control(c->x->p, c->spec, c->port, err);
}

isolde_status isolde_proxy_link(isolde_proxy *x, const char *spec, int *port, isolde_error *err)
{
    struct link_call c = {x, spec, port};
    return iso_call(link_call, &c, err);
}

isolde_status isolde_proxy_control(isolde_proxy *x, const char *listen, int *port, isolde_error *err)
{
    struct link_call c = {x, listen, port};
    return iso_call(control_call, &c, err);
}

struct loop_call {
    isolde_proxy *x;
    int in, out;
    const volatile sig_atomic_t *stop;
};

static int loop_call(void *arg, isolde_error *err)
{
    struct loop_call *c = arg;
    (void)err;
    if (c->in >= 0) nem_proxy_control_fds(c->x->p, c->in, c->out);
    nem_proxy_loop(c->x->p, c->stop);
    return 0;
}

isolde_status isolde_proxy_run(isolde_proxy *x, int in, int out, const volatile sig_atomic_t *stop,
                               isolde_error *err)
{
    struct loop_call c = {x, in, out, stop};
    return iso_call(loop_call, &c, err);
}

void isolde_proxy_free(isolde_proxy *x)
{
    if (!x) return;
    nem_proxy_free(x->p);
    iso_free(x);
}

struct send_call {
    const char *addr, *line;
    char *reply;
    size_t n;
};

/* The line sent, the reply copied out (if there is room for it), the
 * status by the reply, and the whole reply as the error's message. */
static int send_call(void *arg, isolde_error *err)
{
    struct send_call *c = arg;
    if (!c->line || strpbrk(c->line, "\r\n"))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "a proxy command is one line: no line break in it");
    iso_buf r = {0};
    int rc = nem_proxy_remote(c->addr, c->line, &r);
    const char *reply = iso_buf_cstr(&r);
    if (c->n) snprintf(c->reply, c->n, "%s", reply);
    isolde_status s = rc < 0 ? ISOLDE_ERR_IO : strncmp(reply, "ok", 2) != 0 ? ISOLDE_ERR_USAGE : ISOLDE_OK;
    if (s != ISOLDE_OK) iso_fail(err, s, NULL, 0, 0, "%s", reply);
    iso_buf_free(&r);
    return s == ISOLDE_OK ? 0 : -1;
}

isolde_status isolde_proxy_send(const char *addr, const char *line, char *reply, size_t n, isolde_error *err)
{
    struct send_call c = {addr, line, reply, reply ? n : 0};
    if (c.n) reply[0] = '\0';
    return iso_call(send_call, &c, err);
}
