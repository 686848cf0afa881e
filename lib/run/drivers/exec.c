/*
 * run/drivers/exec.c -- any database through a subprocess: each client
 * starts the --url command with sh -c (in its own process group) and
 * talks the line protocol of docs/FORMATS.md section 7 over a socket pair
 * (its stdin and stdout). A client that dies, hangs past --reply-timeout
 * or answers garbage costs an info; the runner then reconnects, which
 * kills the old process group and starts a new one. Clients see
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
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "run/drivers/driver.h"
#include "run/drivers/exec.h"

#define MAX_REPLY (1 << 20)

struct exec_config {
    long reply_timeout_ms;
};

struct exec_conn {
    pid_t pid;
    int fd;
    long timeout_ms;
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

/* The client's process: the command, on the socket's other end. */
static void exec_child(int fd, int client, const char *cmd)
{
    char index[24];
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
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return iso_fail(err, ISOLDE_ERR_IO, NULL, 0, 0, "fork: %s", strerror(errno));
    }
    if (pid == 0) exec_child(sv[1], client, url);
    close(sv[1]);
    struct exec_conn *c = iso_xcalloc(1, sizeof *c);
    c->pid = pid;
    c->fd = sv[0];
    c->timeout_ms = cf->reply_timeout_ms;
    *out = c;
    return 0;
}

static void exec_close(void *conn)
{
    struct exec_conn *c = conn;
    close(c->fd);
    /* Give a well-behaved client 100 ms to exit on EOF, then kill its
     * process group. */
    int gone = waitpid(c->pid, NULL, WNOHANG) != 0;
    for (int i = 0; !gone && i < 20; i++) {
        struct timespec ts = {0, 5000000L};
        nanosleep(&ts, NULL);
        gone = waitpid(c->pid, NULL, WNOHANG) != 0;
    }
    if (!gone) {
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

/* Wait for one line; returns its length (the newline not counted) or -1
 * with t->error set. */
static long recv_line(struct exec_conn *c, run_txn *t)
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
        if (r <= 0) return snprintf(t->error, sizeof t->error, "client timed out"), -1;
        ISO_GROW(c->in, c->cap_in, c->n_in + 65536);
        ssize_t got = recv(c->fd, c->in + c->n_in, c->cap_in - c->n_in, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return snprintf(t->error, sizeof t->error, "client exited"), -1;
        c->n_in += (size_t)got;
    }
}

static int exec_txn(void *conn, run_txn *t)
{
    struct exec_conn *c = conn;
    c->req.n = 0;
    iso_buf_puts(&c->req, "{\"value\":");
    txn_json(&c->req, t, 0);
    iso_buf_puts(&c->req, "}\n");
    if (send_all(c->fd, c->req.p, c->req.n) < 0) {
        snprintf(t->error, sizeof t->error, "client exited");
        return RUN_INFO;
    }
    long len = recv_line(c, t);
    if (len < 0) return RUN_INFO;
    int outcome = exec_parse_reply(c->in, (size_t)len, t);
    c->n_in -= (size_t)len + 1;
    memmove(c->in, c->in + len + 1, c->n_in);
    if (outcome >= 0) return outcome;
    run_txn_clear_reads(t);
    snprintf(t->error, sizeof t->error, "garbage reply");
    return RUN_INFO;
}

static const run_option options[] = {
    {{"reply-timeout", ISOLDE_OPTION_INT, "MS", "10000", "a reply later than this is an info"},
     offsetof(struct exec_config, reply_timeout_ms), 1, 86400000, NULL},
};

const run_driver run_driver_exec = {
    {"exec", "any database through a subprocess speaking the line protocol (docs/FORMATS.md)",
     "a shell command that starts one client", NULL, NULL},
    sizeof(struct exec_config), options, sizeof options / sizeof options[0],
    exec_setup, exec_open, exec_txn, exec_close, NULL};
