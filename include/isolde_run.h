/*
 * isolde_run.h -- the public interface of driving a database: runs of
 * concurrent clients with faults, directed scenarios and campaigns, and the
 * fault proxy. Part of isolde.h, which includes it where its types are
 * known: include <isolde.h>, not this file.
 */
#ifndef ISOLDE_RUN_H
#define ISOLDE_RUN_H

#ifndef ISOLDE_H
#error "include <isolde.h>, which includes isolde_run.h"
#endif

/* ---- running -------------------------------------------------------- */

/* Faults: a nemesis beside the clients, on a schedule drawn from the
 * seed, each fault and heal an op of the process "nemesis" in the
 * history; everything is healed before the final reads. */
typedef struct isolde_fault_opts {
    const char *nemesis;      /* kinds, comma-separated: command, kill, pause, partition, latency, drop; NULL: none */
    double every;             /* mean seconds between faults (each wait 0.5x..1.5x); 5 */
    double duration;          /* seconds a fault lasts before it is healed; 2 */
    const char *fault_cmd, *heal_cmd; /* command: the fault and the heal (sh -c) */
    const char *restart_cmd;  /* kill: how the server comes back (sh -c) */
    const char *pid_file;     /* kill, pause: the server's pid, its first line */
    long pid;                 /* or the pid itself */
    /* Faults through isolde's TCP proxy (kinds partition, latency, drop):
     * with proxy set, or one of those kinds asked for, client i reaches
     * urls[i % n_urls] through a proxy the run starts (its host:port
     * rewritten; the node is "n" and the URL's place, from 1). peers are
     * more links for that proxy, "FROM>TO@LISTEN=TARGET" (isolde proxy
     * --link), so that a cluster's own traffic can be cut; proxy_control
     * is another proxy's control address (isolde proxy --control), which
     * gets the same faults. */
    int proxy;
    const char *const *peers;
    size_t n_peers;
    const char *proxy_control;
    long latency_ms;          /* latency: how long bytes are held; 100 */
} isolde_fault_opts;

/* Drive a database with concurrent clients and record what each client
 * saw as an Elle-compatible JSON-lines history (one op per line, every
 * completion in the file before its client starts its next transaction).
 * Backends: "sim" (the seeded in-process MVCC database whose levels are
 * known: same seed, byte-identical history), "exec" (any client program
 * speaking the line protocol of docs/FORMATS.md), and those of the
 * optional libraries this library was built with (isolde_feature):
 * "sqlite", "postgres", "mysql", "etcd"; isolde_backend_at lists them. */
typedef struct isolde_run_opts {
    size_t size;              /* sizeof(isolde_run_opts), set by _init */
    const char *backend;      /* default "sim" */
    /* Endpoints (database files, URLs, commands): client i uses
     * urls[i % n_urls]. NULL / 0: the backend's default, if it has one. */
    const char *const *urls;
    size_t n_urls;
    const char *history_path; /* where the history goes (required) */
    isolde_workload workload; /* LIST_APPEND (default) or RW_REGISTER */
    /* The isolation level asked of the database, in its own words (the
     * backend's levels: isolde_backend_at); NULL: the backend's default. */
    const char *isolation;
    long txns;                /* transactions before the final reads; 2000 */
    int clients;              /* concurrent clients; 8 */
    int keys;                 /* hot keys in the pool; 8 (at most 1024) */
    int max_writes_per_key;   /* a key retires after this many writes; 32 */
    int max_txn_length;       /* micro-ops per transaction, 1..64; 4 */
    double read_ratio;        /* share of reads among micro-ops; 0.5 */
    double zipf;              /* key skew exponent; 0 = uniform */
    uint64_t seed;            /* generator (and sim) seed; 1 */
    int processes;            /* clients as forked processes, not threads */
    /* A client whose connection fails retries until this many
     * milliseconds have passed since it first failed; 30000. */
    long reconnect_ms;
    /* The backend's own options as "name=value" strings, each one of the
     * names isolde_backend_options lists for it (checked by isolde_run). */
    const char *const *backend_opts;
    size_t n_backend_opts;
    /* control: the run stops early (no final reads) once *stop != 0 */
    const volatile sig_atomic_t *stop;
    /* called about ten times a second from the runner's thread */
    void (*progress)(void *arg, long done, long total, double seconds);
    void *progress_arg;
    isolde_fault_opts faults; /* the nemesis beside the clients; none by default */
    /* A statement that has not answered after this many milliseconds is
     * given up (the connection is closed: fail before COMMIT, info during
     * it); 0: wait as long as the database takes. */
    long txn_timeout_ms;
    /* No transaction starts after this many seconds of wall-clock time
     * (then the final reads), the sim's too, whose history's clock is
     * simulated; 0: as many as txns says. */
    double time_limit;
    /* Endpoints for read-only transactions (a replica): client i sends
     * its transactions without writes to read_urls[i % n_read_urls], at
     * the backend's level for them (PostgreSQL: REPEATABLE READ for
     * SERIALIZABLE, which a hot standby refuses), and the history records
     * each op's node and level. NULL / 0: every transaction to urls. */
    const char *const *read_urls;
    size_t n_read_urls;
    /* Called (with progress_arg) when the run waits for the database
     * before any client starts -- its setup's first attempt failed and it
     * tries again until reconnect_ms -- with one line saying so, e.g.
     * "connecting to 127.0.0.1:5432 (retrying until --reconnect: 30 s)";
     * it names no secret. NULL: nothing is said. */
    void (*waiting)(void *arg, const char *what);
} isolde_run_opts;

/* Why transactions failed or ended unknown: a class as the history
 * records it ("serialization-failure", "deadlock", "connection", ...; a
 * failure the backend gave no class is "error", an unknown outcome
 * without one "indeterminate"), and how many of each outcome. */
#define ISOLDE_RUN_MAX_REASONS 16
#define ISOLDE_RUN_MAX_KINDS 8 /* nemesis kinds a run takes */
typedef struct isolde_run_reason {
    char name[32];
    long fail, info;
} isolde_run_reason;

typedef struct isolde_run_stats {
    long ok, fail, info; /* transactions by outcome, final reads included */
    /* Transactions that ran while another one in flight touched a key
     * they touched, one of the two writing it: how much the run tested
     * concurrency control at all. */
    long contended;
    double seconds;      /* wall time of the run */
    long final_reads;    /* of ok + fail + info, the final reads' transactions
                            (every key read once the clients are done) */
    int time_limited;    /* time_limit passed before txns transactions were made */
    long faults;         /* faults the nemesis injected (healed ones and not) */
    /* The nemesis: its faults per kind, in the order nemesis names them;
     * when its first fault was due and how long it ran, in seconds on its
     * clock (the sim's is simulated: the history's). A kind with no fault
     * never fired: the run ended first, or the draws chose other kinds. */
    long kind_faults[ISOLDE_RUN_MAX_KINDS];
    double first_fault_due, nemesis_seconds;
    int n_reasons;       /* the first ISOLDE_RUN_MAX_REASONS reasons seen; any
                            later kind is counted as "other" in the last */
    isolde_run_reason reasons[ISOLDE_RUN_MAX_REASONS];
} isolde_run_stats;

ISOLDE_API void isolde_run_opts_init(isolde_run_opts *o);
/* Run o->backend and write the history to o->history_path. On success
 * fills *st (which may be NULL). Errors: USAGE (unknown backend, option or
 * value), IO (the history cannot be written, the database cannot be
 * reached in time), NOMEM; the history written so far stays on disk. */
ISOLDE_API isolde_status isolde_run(const isolde_run_opts *o, isolde_run_stats *st,
                                    isolde_error *err);

/* ---- directed scenarios ------------------------------------------- */

/* The classic interleavings (Hermitage's, Adya's anomalies), run
 * deterministically: each transaction on a client thread with its own
 * connection, a coordinator handing each scripted statement (begin, a
 * micro-op, commit) to its client in the script's order and waiting for
 * it; a statement not done within the wait is blocked on a lock, and the
 * script goes on without it (it completes when the lock is released). A
 * setup transaction first appends a first element to every key, and a
 * final read of every key ends the history. isolde_scenario_at lists
 * them: the name, the anomaly the interleaving provokes (Elle's name),
 * one line of help, and the script, statements separated by ";":
 * "T1 begin; T1 r x; T2 append x 21; T1 commit" (keys x, y, z are keys
 * 1, 2, 3 in the history). */
typedef struct isolde_scenario {
    const char *name;
    const char *anomaly;
    const char *help;
    const char *script;
} isolde_scenario;

/* The scenarios, by index; NULL past the last. Borrowed, static. */
ISOLDE_API const isolde_scenario *isolde_scenario_at(size_t i);

/* What a backend's documentation promises of one of its levels: the
 * strongest of Elle's consistency models it claims there (a level keeps
 * its promise when a check finds no anomaly that model forbids), what it
 * allows, in words, and where the documentation says so. */
typedef struct isolde_promise {
    const char *backend, *level;
    const char *model;
    const char *allows;
    const char *source;
} isolde_promise;
/* The table of promises, one row per backend x level, by index; NULL past
 * the last. Borrowed, static. */
ISOLDE_API const isolde_promise *isolde_promise_at(size_t i);
/* The row of backend at level, or NULL when its documentation promises
 * nothing there (or isolde does not know what). */
ISOLDE_API const isolde_promise *isolde_promise_of(const char *backend, const char *level);

/* What happened to one scripted transaction: its outcome as recorded
 * ("ok", "fail", "info"), whether one of its statements was still
 * running after the wait (blocked on a lock), and why it did not commit
 * (the recorded error class, the database's code and message). */
typedef struct isolde_scenario_txn {
    const char *outcome;
    int waited;
    char err_class[32];
    char code[16];
    char error[120];
} isolde_scenario_txn;

#define ISOLDE_SCENARIO_MAX_TXNS 8
typedef struct isolde_scenario_result {
    int n_txns;                 /* T1 .. Tn */
    isolde_scenario_txn txns[ISOLDE_SCENARIO_MAX_TXNS];
    double seconds;
} isolde_scenario_result;

/* Run scenario name against o->backend at o->isolation (o->urls,
 * o->backend_opts and o->reconnect_ms as isolde_run takes them; the
 * workload is list-append; the nemesis and the other run options are
 * ignored), with
 * fresh tables, and write its history (Elle JSON lines) to
 * o->history_path. wait_ms: how long a statement may run before it
 * counts as blocked (0: 300). Errors: USAGE (unknown scenario, backend or
 * level; a backend that cannot run statement by statement), IO (the
 * database cannot be used, the setup or the final reads failed, the
 * history cannot be written), NOMEM. */
ISOLDE_API isolde_status isolde_scenario_run(const isolde_run_opts *o, const char *name, long wait_ms,
                                             isolde_scenario_result *out, isolde_error *err);
/* ---- the fault proxy (isolde proxy) ------------------------------- */

/* A TCP proxy with faults, on one thread: links (a listening address, a
 * target, the nodes the link joins) whose connections are forwarded byte
 * for byte, and commands, one a line, that cut links between groups of
 * nodes (a partition), delay their bytes or drop their connections:
 * "cut n1 n2,n3", "heal", "delay 100", "drop n1", "status", "quit".
 * Addresses are [NETNS/]HOST:PORT (NETNS: a name in /run/netns), port 0
 * for any free one. */
typedef struct isolde_proxy isolde_proxy;
ISOLDE_API isolde_status isolde_proxy_new(isolde_proxy **out, isolde_error *err);
/* A link, "[FROM>TO@]LISTEN=TARGET": connections to LISTEN go on to
 * TARGET, from node FROM to node TO (default: from "clients" to "nK", K
 * the link's place among such links, from 1); *port: where it listens. */
ISOLDE_API isolde_status isolde_proxy_link(isolde_proxy *p, const char *spec, int *port, isolde_error *err);
/* Take commands on TCP connections to listen (one reply line each). */
ISOLDE_API isolde_status isolde_proxy_control(isolde_proxy *p, const char *listen, int *port, isolde_error *err);
/* Forward until *stop (may be NULL) or a quit command, taking commands
 * from in (-1: none) with replies to out. */
ISOLDE_API isolde_status isolde_proxy_run(isolde_proxy *p, int in, int out, const volatile sig_atomic_t *stop,
                                          isolde_error *err);
ISOLDE_API void isolde_proxy_free(isolde_proxy *p);
/* Send one command, line, to the proxy whose control listens at addr
 * (HOST:PORT). Its reply line, "ok ..." or "error ...", goes into reply,
 * NUL-terminated and cut to n - 1 bytes, unless n is 0 (reply may then be
 * NULL). ISOLDE_OK when it answered "ok ...", USAGE when it answered
 * "error ..." or line holds a line break (nothing sent, reply ""), IO when
 * it could not be reached or closed without a reply (reply says why). On
 * failure err's message is the whole reply (to the message's size, not
 * to n) or why nothing was sent. */
ISOLDE_API isolde_status isolde_proxy_send(const char *addr, const char *line, char *reply, size_t n,
                                           isolde_error *err);

/* A backend: its name, one line of help, what --url names for it (NULL:
 * it takes none), the isolation level it runs at when none is asked for,
 * and the levels it can be asked for (NULL-ended; NULL: any the database
 * accepts). */
typedef struct isolde_backend {
    const char *name;
    const char *help;
    const char *url_help;
    const char *isolation;
    const char *const *levels;
} isolde_backend;

/* The backends this library was built with, by index; NULL past the last.
 * Borrowed, static. */
ISOLDE_API const isolde_backend *isolde_backend_at(size_t i);
/* The options backend declares, by index; NULL past the last or for an
 * unknown backend. Borrowed, static. */
ISOLDE_API const isolde_option *isolde_backend_option(const char *backend, size_t i);
/* Overwrite, in place, every byte of every password url holds (what the
 * library would take for one: user:PASSWORD@ by every reading of where
 * the user part ends, any *password= parameter, in a URL or a libpq
 * key=value string) with '*', keeping its length: for a program that has
 * copied its --url arguments to take the passwords out of its argv (what
 * /proc/PID/cmdline shows). NULL is a no-op. */
ISOLDE_API void isolde_url_hide_password(char *url);

#endif
