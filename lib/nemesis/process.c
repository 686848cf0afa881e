/*
 * nemesis/process.c -- faults of a server's processes: kill (SIGKILL of the
 * server and every process below it, then --restart CMD at the heal) and
 * pause (SIGSTOP of them all, SIGCONT at the heal). The server is the pid
 * in --pid-file's first line (read again at every fault: a restart writes
 * a new one) or --pid. Its children are found through /proc: a PostgreSQL
 * backend calls setsid, so its process group is not the postmaster's, but
 * its parent is.
 */
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "nemesis/nemesis.h"

static int check_target(const isolde_run_opts *o, isolde_error *err)
{
    if ((!o->faults.pid_file || !*o->faults.pid_file) && o->faults.pid <= 0)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--nemesis kill and pause need --pid-file F or --pid N");
    return 0;
}

static int check_kill(const isolde_run_opts *o, isolde_error *err)
{
    if (check_target(o, err) < 0) return -1;
    if (!o->faults.restart_cmd || !*o->faults.restart_cmd)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--nemesis kill needs --restart CMD (how the server comes back)");
    return 0;
}

/* The server's pid now, or 0. */
static pid_t server_pid(const isolde_run_opts *o)
{
    if (!o->faults.pid_file || !*o->faults.pid_file) return (pid_t)o->faults.pid;
    FILE *f = fopen(o->faults.pid_file, "r");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1) pid = 0;
        fclose(f);
    }
    return pid > 0 ? (pid_t)pid : 0;
}

/* pid's state letter and parent, from /proc/PID/stat ("pid (comm) state
 * ppid ..."); -1 when there is no such process. */
static int proc_stat(pid_t pid, char *state, pid_t *ppid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    char *close = strrchr(line, ')');
    long pp = 0;
    if (!close || sscanf(close + 1, " %c %ld", state, &pp) != 2) return -1;
    *ppid = (pid_t)pp;
    return 0;
}

static pid_t parent_of(pid_t pid)
{
    char state;
    pid_t ppid;
    return proc_stat(pid, &state, &ppid) == 0 ? ppid : 0;
}

static int in(const pid_t *set, size_t n, pid_t p)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == p) return 1;
    return 0;
}

/* root and every process below it, into n->stopped (root first). */
static void tree(nem_ctx *n, pid_t root)
{
    n->n_stopped = 0;
    ISO_GROW(n->stopped, n->cap_stopped, 1);
    n->stopped[n->n_stopped++] = root;
    for (size_t before = 0; before != n->n_stopped;) { /* until no new child */
        before = n->n_stopped;
        DIR *d = opendir("/proc");
        for (struct dirent *e; d && (e = readdir(d));) {
            if (!isdigit((unsigned char)e->d_name[0])) continue;
            pid_t p = (pid_t)atol(e->d_name), pp = parent_of(p);
            if (pp && in(n->stopped, n->n_stopped, pp) && !in(n->stopped, n->n_stopped, p)) {
                ISO_GROW(n->stopped, n->cap_stopped, n->n_stopped + 1);
                n->stopped[n->n_stopped++] = p;
            }
        }
        if (d) closedir(d);
    }
}

static void put_pids(iso_buf *value, const pid_t *pids, size_t n)
{
    iso_buf_puts(value, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) iso_buf_puts(value, ",");
        iso_buf_int(value, pids[i]);
    }
    iso_buf_puts(value, "]");
}

/* Whether pid is gone: no such process, or a zombie. */
static int gone(pid_t pid)
{
    char state;
    pid_t ppid;
    return proc_stat(pid, &state, &ppid) < 0 || state == 'Z' || state == 'X';
}

/* After SIGKILL: until every one is gone (at most 10 s), so that a
 * restart finds the server's resources free. */
static void wait_gone(const pid_t *pids, size_t n)
{
    struct timespec ts = {0, 10 * 1000000L};
    for (int tries = 0; tries < 1000; tries++) {
        size_t left = 0;
        for (size_t i = 0; i < n; i++) left += !gone(pids[i]);
        if (!left) return;
        nanosleep(&ts, NULL);
    }
}

/* Until pid has stopped (SIGSTOP is delivered asynchronously: a parent
 * still running could fork a child the walk below misses, an orphan left
 * holding the server's shared memory), is gone, or 2 s have passed. */
static void wait_stopped(pid_t pid)
{
    struct timespec ts = {0, 1000000L};
    char state = 0;
    pid_t ppid;
    for (int tries = 0; tries < 2000; tries++) {
        if (proc_stat(pid, &state, &ppid) < 0 || state == 'T' || state == 't' || state == 'Z') return;
        nanosleep(&ts, NULL);
    }
}

/* Send sig to the server's tree; the value lists the pids it reached, -1
 * when there was none. The parent is stopped first, and waited for, so
 * that the tree stays as it was read (it forks no more) and its children
 * are still its own when they are found. */
static int signal_tree(nem_ctx *n, int sig, iso_buf *value)
{
    pid_t root = server_pid(n->o);
    n->n_stopped = 0;
    if (root <= 0 || kill(root, SIGSTOP) != 0) {
        iso_buf_puts(value, "\"no server process\"");
        return -1;
    }
    wait_stopped(root);
    tree(n, root);
    size_t hit = 0;
    for (size_t i = 0; i < n->n_stopped; i++)
        if (kill(n->stopped[i], sig) == 0) n->stopped[hit++] = n->stopped[i];
    n->n_stopped = hit;
    if (sig == SIGKILL) wait_gone(n->stopped, n->n_stopped);
    put_pids(value, n->stopped, n->n_stopped);
    return 0;
}

static int kill_start(nem_ctx *n, iso_buf *value) { return signal_tree(n, SIGKILL, value); }

static int kill_stop(nem_ctx *n, iso_buf *value) { return nem_run_command(n, "restart", n->o->faults.restart_cmd, value); }

static int pause_start(nem_ctx *n, iso_buf *value) { return signal_tree(n, SIGSTOP, value); }

static int pause_stop(nem_ctx *n, iso_buf *value)
{
    for (size_t i = 0; i < n->n_stopped; i++) kill(n->stopped[i], SIGCONT);
    put_pids(value, n->stopped, n->n_stopped);
    n->n_stopped = 0;
    return 0;
}

const nem_kind nem_kill = {"kill", "kill", "start", check_kill, kill_start, kill_stop};
const nem_kind nem_pause = {"pause", "pause", "resume", check_target, pause_start, pause_stop};
