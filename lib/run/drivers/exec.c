/*
 * run/drivers/exec.c -- any database through a subprocess: each client
 * starts the --url command with sh -c (in its own process group) and
 * talks the line protocol of docs/FORMATS.md section 7 over a socket pair
 * (its stdin and stdout). A client that dies, hangs past --reply-timeout
 * or answers garbage costs an info; the runner then reconnects, which
 * kills the old process group and starts a new one. Bytes that no request
 * asked for (left after a reply, or arriving before the next request is
 * sent) belong to no transaction: they are a protocol error, and the
 * transaction about to be sent is recorded as info without being sent,
 * never answered by them. Clients see
 * ISOLDE_RUN_ID, the same for every client of one run, ISOLDE_CLIENT, the
 * client's index, and ISOLDE_ISOLATION, the level asked for (when one is).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/sockios.h> /* SIOCOUTQ */
#endif
#include "run/drivers/driver.h"
#include "run/drivers/exec.h"

#define MAX_REPLY (1 << 20)

struct exec_config {
    long reply_timeout_ms;
};

struct exec_conn {
    pid_t pid;          /* the client's process; -1 once reaped */
    int status;         /* its wait status, once reaped */
    int fd;
    long timeout_ms;
    int64_t next_id;    /* the next request's "id" */
    int echoes_id;      /* the client has echoed one: every reply must */
    iso_buf req;
    char *in;           /* bytes received, not yet consumed */
    size_t n_in, cap_in;
};

/* Clients of one run share ISOLDE_RUN_ID (so that the first can reset
 * the database and a restarted one does not). Set before any client
 * starts, while the runner is single-threaded. */
static int exec_setup(const run_env *env, isolde_error *err)
{
    char id[64];
    snprintf(id, sizeof id, "%ld-%.0f", (long)getpid(), iso_now() * 1e9);
    if (setenv("ISOLDE_RUN_ID", id, 1) != 0 ||
        (env->isolation && setenv("ISOLDE_ISOLATION", env->isolation, 1) != 0))
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "setenv: %s", strerror(errno));
    return 0;
}

/* The client's process: the command, on the socket's other end; it dies
 * with the run (run_child_of), a SIGKILLed one too. */
static void exec_child(int fd, int client, const char *cmd, pid_t parent)
{
    char index[24];
    run_child_of(parent);
    snprintf(index, sizeof index, "%d", client);
    setenv("ISOLDE_CLIENT", index, 1);
    setpgid(0, 0);
    signal(SIGINT, SIG_IGN); /* the runner stops it, not the terminal */
    dup2(fd, 0);
    dup2(fd, 1);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

static int exec_open(const run_env *env, int client, const char *url, void **out, isolde_error *err)
{
    const struct exec_config *cf = env->config;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "socketpair: %s", strerror(errno));
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "fork: %s", strerror(errno));
    }
    if (pid == 0) exec_child(sv[1], client, url, parent);
    close(sv[1]);
    struct exec_conn *c = iso_xcalloc(1, sizeof *c);
    c->pid = pid;
    c->fd = sv[0];
    c->timeout_ms = cf->reply_timeout_ms;
    *out = c;
    return 0;
}

/* Wait up to 100 ms for the client's process to exit; 1 once it has
 * (reaped, its wait status in c->status), else 0. */
static int reaped(struct exec_conn *c)
{
    for (int i = 0; c->pid > 0 && i <= 20; i++) {
        if (i) nanosleep(&(struct timespec){0, 5000000L}, NULL);
        if (waitpid(c->pid, &c->status, WNOHANG) != 0) c->pid = -1;
    }
    return c->pid <= 0;
}

/* Why the client stopped answering, into t->error: how its process
 * ended, if it did. */
static void client_gone(struct exec_conn *c, txn *t)
{
    if (!reaped(c))
        snprintf(t->error, sizeof t->error, "client closed its output");
    else if (WIFEXITED(c->status))
        snprintf(t->error, sizeof t->error, "client exited with status %d", WEXITSTATUS(c->status));
    else if (WIFSIGNALED(c->status))
        snprintf(t->error, sizeof t->error, "client killed by signal %d", WTERMSIG(c->status));
    else
        snprintf(t->error, sizeof t->error, "client exited");
}

static void exec_close(void *conn)
{
    struct exec_conn *c = conn;
    close(c->fd);
    /* A well-behaved client exits on EOF; after 100 ms its process group
     * is killed. */
    if (!reaped(c)) {
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
        waitpid(c->pid, NULL, 0);
    }
    iso_buf_free(&c->req);
    iso_free(c->in);
    iso_free(c);
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Append the line's first bytes to msg (of size n), printable ASCII,
 * anything else as '?', "..." where it is cut short. */
static void excerpt(char *msg, size_t n, const char *line, size_t len)
{
    size_t at = strlen(msg), i = 0;
    if (at + 4 > n) return;
    while (len && line[len - 1] == '\n') len--;
    for (; i < len && at + 4 < n; i++) {
        unsigned char ch = (unsigned char)line[i];
        msg[at++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    if (i < len) memcpy(msg + at, "...", 3), at += 3;
    msg[at] = 0;
}

/* Whether the client has yet to read the whole request (Linux: bytes of
 * it still queued on the socket; elsewhere not known, 0). A client cannot
 * answer a request it has not read: what it wrote by then answers none. */
static int request_unread(int fd)
{
#ifdef SIOCOUTQ
    int queued = 0;
    return ioctl(fd, SIOCOUTQ, &queued) == 0 && queued > 0;
#else
    (void)fd;
    return 0;
#endif
}

/* Wait for one line; returns its length (the newline not counted) or -1
 * with t->error set. */
static long recv_line(struct exec_conn *c, txn *t)
{
    double deadline = iso_now() + (double)c->timeout_ms / 1000.0;
    for (;;) {
        char *nl = c->n_in ? memchr(c->in, '\n', c->n_in) : NULL;
        if (nl) return (long)(nl - c->in);
        if (c->n_in >= MAX_REPLY) return snprintf(t->error, sizeof t->error, "reply too long"), -1;
        long left = (long)((deadline - iso_now()) * 1000.0);
        struct pollfd p = {c->fd, POLLIN, 0};
        int r = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return snprintf(t->error, sizeof t->error, "client timed out (%ld ms)", c->timeout_ms), -1;
        int early = request_unread(c->fd);
        ISO_GROW(c->in, c->cap_in, c->n_in + 65536);
        ssize_t got = recv(c->fd, c->in + c->n_in, c->cap_in - c->n_in, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return client_gone(c, t), -1;
        c->n_in += (size_t)got;
        if (early) {
            snprintf(t->error, sizeof t->error, "protocol error: written before the request was read: ");
            excerpt(t->error, sizeof t->error, c->in, c->n_in);
            return -1;
        }
    }
}

/* How many bytes the client has written that no request asked for: those
 * left after its last reply, and any that arrived since (read without
 * waiting). */
static size_t unasked_bytes(struct exec_conn *c)
{
    while (c->n_in < MAX_REPLY) {
        ISO_GROW(c->in, c->cap_in, c->n_in + 4096);
        ssize_t got = recv(c->fd, c->in + c->n_in, c->cap_in - c->n_in, MSG_DONTWAIT);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break; /* nothing waiting, or end of file (which the request will meet) */
        c->n_in += (size_t)got;
    }
    return c->n_in;
}

/* The outcome the reply line (len bytes at the buffer's start) gives
 * request id: what it says, or an info when it is no reply to it. */
static int reply_outcome(struct exec_conn *c, txn *t, size_t len, int64_t id)
{
    int64_t echoed;
    int outcome = exec_parse_reply(c->in, len, t, &echoed);
    const char *why = outcome < 0 ? "not a reply to the request"
                    : echoed >= 0 && echoed != id ? "protocol error: a reply with another request's id"
                    : echoed < 0 && c->echoes_id ? "protocol error: a reply without the request's id"
                    : NULL;
    c->echoes_id |= echoed >= 0;
    if (!why) return outcome;
    txn_clear_reads(t);
    snprintf(t->error, sizeof t->error, "%s: ", why);
    excerpt(t->error, sizeof t->error, c->in, len);
    return TXN_INFO;
}

/* Take the reply line of len bytes off the input buffer. */
static void consume_line(struct exec_conn *c, long len)
{
    c->n_in -= (size_t)len + 1;
    memmove(c->in, c->in + len + 1, c->n_in);
}

static int exec_txn(void *conn, txn *t)
{
    struct exec_conn *c = conn;
    size_t unasked = unasked_bytes(c);
    if (unasked) {
        snprintf(t->error, sizeof t->error, "protocol error: %zu bytes for no request (this "
                 "one not sent): ", unasked);
        excerpt(t->error, sizeof t->error, c->in, unasked);
        return TXN_INFO;
    }
    int64_t id = c->next_id++;
    c->req.n = 0;
    iso_buf_puts(&c->req, "{\"id\":");
    iso_buf_int(&c->req, id);
    iso_buf_puts(&c->req, ",\"value\":");
    txn_json(&c->req, t, 0);
    iso_buf_puts(&c->req, "}\n");
    if (send_all(c->fd, c->req.p, c->req.n) < 0) {
        client_gone(c, t);
        return TXN_INFO;
    }
    long len = recv_line(c, t);
    if (len < 0) return TXN_INFO;
    int outcome = reply_outcome(c, t, (size_t)len, id);
    consume_line(c, len);
    return outcome;
}

static const run_option options[] = {
    {{"reply-timeout", ISOLDE_OPTION_INT, "MS", "10000", "a reply later than this is an info"},
     offsetof(struct exec_config, reply_timeout_ms), 1, 86400000, NULL},
};

const run_driver run_driver_exec = {
    {"exec", "any database through a subprocess speaking the line protocol (docs/FORMATS.md)",
     "a shell command that starts one client", NULL, NULL},
    sizeof(struct exec_config), options, sizeof options / sizeof options[0],
    exec_setup, exec_open, exec_txn, exec_close, NULL, NULL, NULL, NULL, NULL, 0, NULL};
