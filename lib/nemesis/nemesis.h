/*
 * nemesis/nemesis.h -- the faults a run injects beside its clients (Jepsen's
 * nemesis), one kind per file, in one table:
 *
 *   nemesis.c    the table of kinds, and the set of them a run asks for
 *   command.c    command: any shell command as the fault, another as the heal
 *   process.c    kill (SIGKILL of a server and its children, then a restart
 *                command at the heal) and pause (SIGSTOP / SIGCONT)
 *   net.c        partition, latency and drop, through the fault proxy
 *   proxy.h      the fault proxy (proxy.c, proxy_cmd.c)
 *
 * A kind starts a fault and stops it (heals); each says what it did as a
 * JSON value for the history (whom it hit). start and stop are called from
 * one thread, in turns (start, stop, start, ...); stop is called once more
 * at the end of a run only when a fault is on. The schedule and the
 * recording are the runner's (run/nemesis.c).
 *
 * Rule: nemesis/ includes core/ only.
 */
#ifndef ISO_NEMESIS_H
#define ISO_NEMESIS_H

#include "core/core.h"
#include "core/value.h"

struct nem_proxy;

/* What the kinds see of the run: its options, and their own state. */
typedef struct nem_ctx {
    const isolde_run_opts *o;
    struct nem_proxy *proxy;  /* the run's proxy (net.c's kinds), or NULL */
    int n_nodes;              /* its nodes n1..nN (the run's URLs) */
    uint64_t rng;             /* the kinds' own draws, from the run's seed */
    pid_t *stopped;           /* pause: the processes stopped now */
    size_t n_stopped, cap_stopped;
    /* The secrets the run knows (its URLs' passwords): scrub replaces
     * every one in text, in place, never growing it; NULL: none. */
    void (*scrub)(void *arg, char *text);
    void *scrub_arg;
} nem_ctx;

typedef struct nem_kind {
    const char *name;          /* as --nemesis names it */
    const char *start_f, *stop_f; /* the ops' :f in the history */
    /* Before the run: what the kind needs is given (options); may be NULL. */
    int (*check)(const isolde_run_opts *o, isolde_error *err);
    /* Inject, or heal: 0, or -1 (the fault could not be made: the value
     * says why; the run goes on). The value is JSON text. */
    int (*start)(nem_ctx *n, iso_buf *value);
    int (*stop)(nem_ctx *n, iso_buf *value);
} nem_kind;

extern const nem_kind nem_command, nem_kill, nem_pause, nem_partition, nem_latency, nem_drop;

/* The kind called name, or NULL. */
const nem_kind *nem_find(const char *name);
/* The kinds o->faults.nemesis lists ("kill,pause"), into out (at most max);
 * their count, or -1 with err naming an unknown kind or what a kind
 * lacks. */
int nem_parse(const isolde_run_opts *o, const nem_kind **out, int max, isolde_error *err);
void nem_ctx_free(nem_ctx *n);
/* Whether a kind of o->faults.nemesis needs the fault proxy. */
int nem_wants_proxy(const isolde_run_opts *o);

/* Run cmd with sh -c, waiting for it; its exit status (-1: not run). */
int nem_shell(const char *cmd);
/* Run cmd (nem_shell) and say so: {"KEY":CMD,"exit":N}, CMD with the
 * run's secrets scrubbed (n->scrub); 0, or -1 when it did not exit 0. */
int nem_run_command(nem_ctx *n, const char *key, const char *cmd, iso_buf *value);

#endif
