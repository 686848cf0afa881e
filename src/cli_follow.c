/*
 * cli_follow.c -- `isolde check --follow FILE`: the history read as it
 * grows (standard input or a pipe to its end, a regular file until it has
 * not grown for --follow-timeout seconds), each certain anomaly and a
 * progress line on standard error as they come, and at the end the batch
 * check's own report of the whole history on standard output
 * (docs/ONLINE.md); and `isolde run --live`, the run's history followed
 * by a thread of its own while the run goes. Invariant: what is checked
 * at the end is every byte read, and nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define F(f) offsetof(cli_follow, f)
static const cli_opt follow_opts[] = {
    {0, "follow", CLI_FLAG, F(on), NULL,
     "check the one FILE (- for standard input) as it grows: each anomaly no later line can undo on "
     "standard error as soon as it is certain (list-append; rw-register's direct anomalies; linearizability; bank, "
     "counter), with a progress line; at the end the same "
     "report as without --follow (docs/ONLINE.md)", 0, 0, NULL, 1},
    {0, "follow-timeout", CLI_DOUBLE, F(timeout), "S",
     "--follow: a regular file is over once it has not grown for S seconds (5; 0: at its first end); "
     "standard input and pipes at their end", 0, 1e6, NULL, 0},
};
#undef F

void cli_follow_init(cli_follow *f)
{
    memset(f, 0, sizeof *f);
    f->timeout = 5;
}

cli_table cli_follow_table(cli_follow *f)
{
    return (cli_table){NULL, follow_opts, sizeof follow_opts / sizeof follow_opts[0], f};
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A certain finding: its type, its proof indented. */
static void print_finding(void *arg, const char *type, const char *text, const char *json)
{
    (void)arg;
    (void)json;
    fprintf(stderr, "isolde: certain: %s\n", type);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(stderr, "  %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void progress(const char *name, const isolde_stream *s)
{
    isolde_stream_stats st;
    isolde_stream_stats_get(s, &st);
    fprintf(stderr, "isolde: %s: %zu ops read (%.1f MB, %.1f MB of it kept as text), %zu transactions checked, "
            "%zu certain anomalies so far\n", name, st.ops, (double)st.bytes / 1e6, (double)st.text_kept / 1e6,
            st.checked, st.findings);
}

/* Whether the input is over after a read that returned nothing: a pipe's
 * end; a regular file idle long enough (or shrunk: an error, -1). */
static int input_over(int fd, int regular, off_t read_so_far, double idle, double timeout, isolde_error *err)
{
    struct stat st;
    if (!regular) return 1;
    if (fstat(fd, &st) == 0 && st.st_size < read_so_far) {
        snprintf(err->msg, sizeof err->msg, "the file shrank while it was followed (from %lld to %lld bytes)",
                 (long long)read_so_far, (long long)st.st_size);
        err->code = ISOLDE_ERR_IO;
        return -1;
    }
    if (idle >= timeout) return 1;
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    return 0;
}

/* Read fd into s to the input's end, polling as it goes. */
static int follow(int fd, int regular, const char *name, double timeout, isolde_stream *s, isolde_error *err)
{
    static char buf[1 << 16];
    double idle_since = now(), said = now();
    off_t total = 0;
    for (int over = 0; !over;) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            snprintf(err->msg, sizeof err->msg, "cannot read: %s", strerror(errno));
            err->code = ISOLDE_ERR_IO;
            return -1;
        }
        if (got > 0 && isolde_stream_append(s, buf, (size_t)got, err)) return -1;
        if (got > 0) total += got, idle_since = now();
        else if ((over = input_over(fd, regular, total, now() - idle_since, timeout, err)) < 0) return -1;
        if (isolde_stream_poll(s, print_finding, NULL, err)) return -1;
        if (now() - said >= 1) progress(name, s), said = now();
    }
    return 0;
}

int cli_follow_file(cli_check *c, const cli_follow *f)
{
    const char *path = c->files[c->at];
    int std = strcmp(path, "-") == 0, fd = std ? 0 : open(path, O_RDONLY);
    const char *name = std ? "<stdin>" : path;
    isolde_error err = {0};
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return EXIT_ERROR;
    }
    isolde_check_opts o;
    char *block = cli_library_opts(c, &o);
    isolde_stream *s = NULL;
    isolde_history *h = NULL;
    int rc = !block || isolde_stream_open(name, &c->read, &o, &s, &err) ||
             follow(fd, S_ISREG(st.st_mode), name, f->timeout, s, &err) || isolde_stream_finish(s, &h, &err);
    if (s) progress(name, s);
    isolde_stream_free(s);
    free(block);
    if (!std) close(fd);
    if (rc && !err.file[0]) snprintf(err.file, sizeof err.file, "%s", name);
    int status = !block ? EXIT_ERROR : rc ? cli_check_failed(c, &err) : cli_check_history(c, h);
    isolde_history_free(h);
    return status;
}

/* Read what the run wrote since, check it as due, print each certain
 * anomaly; 0, or -1 when the stream failed (the check at the end says
 * why too). */
static int live_feed(cli_live *l)
{
    static char buf[1 << 16];
    isolde_error err;
    ssize_t got;
    isolde_stream_stats st = {0};
    if (l->fd < 0) l->fd = open(l->path, O_RDONLY); /* once the run has made it */
    if (l->fd < 0) return 0;
    while ((got = read(l->fd, buf, sizeof buf)) > 0 && !atomic_load(&l->stop))
        if (isolde_stream_append(l->s, buf, (size_t)got, &err)) break;
    int rc = got > 0 && !atomic_load(&l->stop) ? -1 : isolde_stream_poll(l->s, print_finding, NULL, &err) ? -1 : 0;
    if (rc) cli_print_error(&err);
    isolde_stream_stats_get(l->s, &st);
    atomic_store(&l->found, st.findings);
    return rc;
}

/* The thread: feed every 20 ms until stopped or the stream fails, at the
 * lowest priority (the run's throughput first: what it leaves is the
 * early checks'). */
static void *live_thread(void *arg)
{
    cli_live *l = arg;
    struct timespec pause = {0, 20 * 1000000L};
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
    while (!atomic_load(&l->stop) && live_feed(l) == 0) nanosleep(&pause, NULL);
    return NULL;
}

int cli_live_open(cli_live *l, const cli_check *c, const char *path, int threaded)
{
    isolde_error err;
    isolde_read_opts ro;
    isolde_read_opts_init(&ro);
    ro.format = ISOLDE_FORMAT_JSONL;
    memset(l, 0, sizeof *l);
    atomic_init(&l->stop, 0);
    atomic_init(&l->found, 0);
    l->fd = -1;
    l->path = path;
    l->block = cli_library_opts(c, &l->opts);
    if (threaded) l->opts.threads = 1; /* one core: the run has the others */
    if (l->block && !isolde_stream_open(path, &ro, &l->opts, &l->s, &err)) {
        if (!threaded) return 0;
        l->running = pthread_create(&l->thread, NULL, live_thread, l) == 0;
        if (l->running) return 0;
        fprintf(stderr, "isolde run: --live: cannot start its thread\n");
    } else if (l->block) {
        cli_print_error(&err);
    }
    cli_live_close(l);
    return -1;
}

size_t cli_live_found(cli_live *l)
{
    if (!l->running && l->s && !atomic_load(&l->stop) && live_feed(l)) atomic_store(&l->stop, 1);
    return atomic_load(&l->found);
}

void cli_live_close(cli_live *l)
{
    atomic_store(&l->stop, 1);
    isolde_stream_cancel(l->s);
    if (l->running) pthread_join(l->thread, NULL);
    isolde_stream_free(l->s);
    free(l->block);
    if (l->fd >= 0) close(l->fd);
    memset(l, 0, sizeof *l);
    l->fd = -1;
}
