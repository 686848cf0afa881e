/*
 * isolde.h -- the public face of libisolde, a black-box checker of
 * transactional isolation (Adya / Elle style) and linearizability.
 *
 * A program reads a history (iso_history_read_file / _mem), checks it
 * against consistency models (iso_check), walks or prints the result
 * (iso_result_*), and frees both -- the result first: it refers to the
 * history, whose proofs it renders only when they are printed. The isolde
 * CLI uses nothing else.
 *
 * Conventions: functions returning int return 0 on success and -1 on
 * error, with *err filled in (file, line, column and a message). Every
 * object returned through an out-pointer is owned by the caller and freed
 * with the matching *_free function.
 */
#ifndef ISOLDE_H
#define ISOLDE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ISO_API __attribute__((visibility("default")))

/* Exit statuses of the CLI, also the values of iso_validity. */
typedef enum iso_validity {
    ISO_VALID = 0,   /* no anomaly the requested models forbid */
    ISO_INVALID = 1, /* anomalies found */
    ISO_UNKNOWN = 2, /* e.g. empty transaction graph, search out of budget */
    ISO_ERROR = 3    /* unreadable input, bad arguments */
} iso_validity;

/* What kind of failure an iso_error reports. */
typedef enum iso_errcode {
    ISO_ERR_NONE = 0,  /* no error */
    ISO_ERR_PARSE,     /* the input is not a history of its format (position given) */
    ISO_ERR_IO,        /* a file could not be opened, read or written */
    ISO_ERR_USAGE,     /* a bad argument or option (unknown model, bad value) */
    ISO_ERR_LIMIT,     /* the input exceeds a limit isolde sets (size, nesting) */
    ISO_ERR_NOMEM,     /* memory ran out */
    ISO_ERR_INTERNAL   /* a broken invariant: a bug in isolde */
} iso_errcode;

/* Where and why something failed. line/col are 1-based; 0 = no position. */
typedef struct iso_error {
    iso_errcode code;
    char file[256];
    long line, col;
    char msg[512];
} iso_error;

/* Formats a history can be read from (see docs/FORMATS.md). */
typedef enum iso_format {
    ISO_FORMAT_AUTO = 0, /* detect from content */
    ISO_FORMAT_EDN,      /* Jepsen history.edn: op maps, one per line or in a vector */
    ISO_FORMAT_JSON,     /* elle-cli: one JSON array of op objects */
    ISO_FORMAT_JSONL,    /* one JSON op object per line */
    ISO_FORMAT_ONELITE,  /* OneLite: header line, then one completed txn per line */
    ISO_FORMAT_ISOCHECK, /* IsoCheck: JSON lines with '#' comment lines */
    ISO_FORMAT_JEPSEN_LOG /* old jepsen.log text lines: "INFO jepsen.util - 2 :ok :read 4" */
} iso_format;

/* What the operations of a history mean. */
typedef enum iso_workload {
    ISO_WORKLOAD_AUTO = 0,  /* list-append if any append, else rw-register */
    ISO_WORKLOAD_LIST_APPEND,
    ISO_WORKLOAD_RW_REGISTER,
    ISO_WORKLOAD_REGISTER,     /* linearizability: read / write */
    ISO_WORKLOAD_CAS_REGISTER, /* linearizability: read / write / cas */
    ISO_WORKLOAD_KV,           /* linearizability: a register per key */
    ISO_WORKLOAD_MUTEX,        /* linearizability: acquire / release */
    ISO_WORKLOAD_FIFO_QUEUE,   /* linearizability: enqueue / dequeue */
    ISO_WORKLOAD_LIN_SET       /* linearizability: add / read ("set" is its old name) */
} iso_workload;

typedef struct iso_history iso_history;
typedef struct iso_result iso_result;

ISO_API const char *iso_version(void);

/* ---- histories ------------------------------------------------------ */

ISO_API int iso_history_read_file(const char *path, iso_format format,
                                  iso_history **out, iso_error *err);
/* name is used in error messages only; data need not be NUL-terminated. */
ISO_API int iso_history_read_mem(const char *name, const char *data, size_t len,
                                 iso_format format, iso_history **out,
                                 iso_error *err);
ISO_API void iso_history_free(iso_history *h);
ISO_API size_t iso_history_op_count(const iso_history *h);
/* The format the history was read as (after detection). */
ISO_API iso_format iso_history_format(const iso_history *h);

ISO_API const char *iso_format_name(iso_format f);
ISO_API int iso_format_parse(const char *name, iso_format *out);
ISO_API const char *iso_workload_name(iso_workload w);
ISO_API int iso_workload_parse(const char *name, iso_workload *out);

/* ---- checking ------------------------------------------------------- */

/* How a failed CAS in a linearizability history is read. */
typedef enum iso_cas_fail {
    ISO_CAS_FAIL_DEFAULT = 0, /* per format: Knossos EDN/JSON -> did not happen;
                                 jepsen.log -> returned false */
    ISO_CAS_FAIL_NOOP,        /* a failed CAS did not happen */
    ISO_CAS_FAIL_FALSE        /* a failed CAS ran and found another value */
} iso_cas_fail;

typedef struct iso_check_opts {
    iso_workload workload;
    /* Comma-separated model names (any of Elle's 54). NULL means the
     * default, strict-serializable; "" means no model (only anomalies). */
    const char *models;
    /* Comma-separated anomaly names to look for in addition; NULL or "". */
    const char *anomalies;
    long cycle_search_timeout_ms; /* per SCC; default 1000 */
    int threads;                  /* worker threads; 0 = one per core */
    /* rw-register version-order evidence */
    int wfr_keys, sequential_keys, linearizable_keys;
    const char *transaction_order_file; /* JSON {completion index: rank} */
    /* linearizability */
    long timeout_ms;       /* whole-search budget; 0 = none */
    iso_cas_fail cas_fail;
} iso_check_opts;

ISO_API void iso_check_opts_init(iso_check_opts *o);
/* Check h; *out refers to h until it is freed (o is not kept). */
ISO_API int iso_check(const iso_history *h, const iso_check_opts *o,
                      iso_result **out, iso_error *err);

/* ---- results -------------------------------------------------------- */

typedef struct iso_report_opts {
    int max_examples; /* cycles/anomalies printed per type; default 3 */
} iso_report_opts;

ISO_API void iso_report_opts_init(iso_report_opts *o);
ISO_API iso_validity iso_result_validity(const iso_result *r);
/* Sorted anomaly type names, as Elle's :anomaly-types. */
ISO_API size_t iso_result_type_count(const iso_result *r);
ISO_API const char *iso_result_type(const iso_result *r, size_t i);
/* Number of instances found of one anomaly type (0 if none). */
ISO_API size_t iso_result_instance_count(const iso_result *r, const char *type);
/* Elle's :not (weakest models ruled out) and :also-not, friendly names, sorted. */
ISO_API size_t iso_result_not_count(const iso_result *r);
ISO_API const char *iso_result_not(const iso_result *r, size_t i);
ISO_API size_t iso_result_also_not_count(const iso_result *r);
ISO_API const char *iso_result_also_not(const iso_result *r, size_t i);

/* Writers render the proofs they show first (so the result is not const). */
ISO_API int iso_result_write_text(iso_result *r, FILE *out, const iso_report_opts *o);
ISO_API int iso_result_write_json(iso_result *r, FILE *out);
/* One text file per anomaly type, as Elle's :directory does. */
ISO_API int iso_result_write_dir(iso_result *r, const char *dir, iso_error *err);
ISO_API void iso_result_free(iso_result *r);

/* ---- running -------------------------------------------------------- */
#include <signal.h>

/* Drive a database with concurrent clients and record what each client
 * saw as an Elle-compatible JSON-lines history (one op per line, written
 * before that client starts its next transaction). Backends: "sim" (the
 * seeded in-process MVCC database: same seed, byte-identical history),
 * "sqlite" (libsqlite3, when built with it) and "exec" (any client
 * program speaking the line protocol of docs/FORMATS.md). */
typedef struct iso_run_opts {
    const char *backend;      /* "sim" | "sqlite" | "exec"; default "sim" */
    const char *url;          /* sqlite: database file; exec: shell command */
    const char *history_path; /* where the history goes (required) */
    iso_workload workload;    /* LIST_APPEND (default) or RW_REGISTER */
    long txns;                /* transactions before the final reads; 2000 */
    int clients;              /* concurrent clients; 8 */
    int keys;                 /* hot keys in the pool; 8 (at most 1024) */
    int max_writes_per_key;   /* a key retires after this many writes; 32 */
    int max_txn_length;       /* micro-ops per transaction, 1..64; 4 */
    double read_ratio;        /* share of reads among micro-ops; 0.5 */
    double zipf;              /* key skew exponent; 0 = uniform */
    uint64_t seed;            /* generator (and sim) seed; 1 */
    int processes;            /* clients as forked processes, not threads */
    /* sim */
    const char *isolation;    /* see iso_run_isolation_name; "strict-serializable" */
    double abort_rate;        /* share of commits the sim aborts at random */
    double info_rate;         /* share of commits with an unknown outcome */
    int stale;                /* serializable: snapshots up to this many
                                 commits old; -1 = default (3) */
    /* sqlite */
    const char *begin;        /* "deferred" | "immediate" | "exclusive" */
    const char *journal;      /* "wal" | "delete" */
    long busy_timeout_ms;     /* 5000 */
    /* exec */
    long timeout_ms;          /* a reply later than this is info; 10000 */
    /* control: the run stops early (no final reads) once *stop != 0 */
    const volatile sig_atomic_t *stop;
    /* called about ten times a second from the runner's thread */
    void (*progress)(void *arg, long done, long total, double seconds);
    void *progress_arg;
} iso_run_opts;

typedef struct iso_run_stats {
    long ok, fail, info; /* transactions by outcome, final reads included */
    double seconds;      /* wall time of the run */
} iso_run_stats;

ISO_API void iso_run_opts_init(iso_run_opts *o);
/* Run o->backend and write the history to o->history_path. Returns 0 and
 * fills *st (which may be NULL), or -1 with err set (the history written
 * so far stays on disk). */
ISO_API int iso_run(const iso_run_opts *o, iso_run_stats *st, iso_error *err);
/* The sim's isolation levels by index; NULL past the last. */
ISO_API const char *iso_run_isolation_name(int i);

#ifdef __cplusplus
}
#endif
#endif /* ISOLDE_H */
