/*
 * isolde.h -- the public face of libisolde, a black-box checker of
 * transactional isolation (Adya / Elle style) and linearizability, and a
 * runner that drives databases to record the histories it checks.
 *
 * A program reads a history (isolde_history_read_file / _mem, or builds
 * one line by line with isolde_history_new and _append_mem), checks it
 * against consistency models (isolde_check), walks or writes the result
 * (isolde_result_*), and frees both -- the result first: it refers to the
 * history, whose proofs it renders when they are written. The isolde CLI
 * uses nothing else.
 *
 * Conventions, for every function here:
 *  - Fallible functions return ISOLDE_OK (0) or an isolde_status error and
 *    take an isolde_error *err last (which may be NULL). On failure err
 *    says what kind of failure, where (file:line:col of the input) and
 *    why; on success err is left untouched, so calls can share one.
 *  - An object returned through an out-pointer is the caller's, freed with
 *    the matching *_free function (which accepts NULL); on failure the
 *    out-pointer is set to NULL. Strings returned are borrowed from their
 *    object and live as long as it does. Inputs are borrowed, never kept,
 *    unless a comment says otherwise.
 *  - Running out of memory is an error (ISOLDE_ERR_NOMEM), never a crash:
 *    everything the failed call allocated is freed.
 *  - Option structs begin with their size: fill them with the matching
 *    *_init first, so that a program built against this header keeps
 *    working with a later library that has more options (which come at
 *    the end; the ABI history at the end of this header lists every
 *    change that was not an addition).
 *
 * Every identifier of the API begins with isolde_ / ISOLDE_; the library
 * exports no other symbol.
 */
#ifndef ISOLDE_H
#define ISOLDE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ISOLDE_API __attribute__((visibility("default")))

/* ---- the library ------------------------------------------------------ */

/* The version this header belongs to (isolde_version.h, made by the build
 * from the Makefile's VERSION and installed beside this header):
 * ISOLDE_VERSION "MAJOR.MINOR.PATCH", ISOLDE_VERSION_NUMBER MAJOR * 1000000
 * + MINOR * 1000 + PATCH. The library's own, which a program linked
 * against a shared library may find newer: isolde_version() and
 * isolde_version_number(). The shared library's soname carries the major
 * version (libisolde.so.MAJOR); the ABI history at the end of this header
 * says what changed when. */
#include "isolde_version.h"
ISOLDE_API const char *isolde_version(void);
ISOLDE_API int isolde_version_number(void);

/* 1 if this library was built with the optional library name, 0 if not,
 * -1 if name is none of them: "zlib" (gzip histories), "sqlite" (the
 * sqlite backend), "libpq" (postgres), "mariadb" (mysql), "curl" (etcd),
 * "gvc" (Graphviz: -d's pictures as SVG too), "cadical" (the SAT solver
 * that decides serializability and snapshot isolation exactly when version
 * orders are unknown). isolde_feature_name(i): the
 * i-th of those names, NULL past the last. */
ISOLDE_API int isolde_feature(const char *name);
ISOLDE_API const char *isolde_feature_name(size_t i);

/* ---- errors ------------------------------------------------------------- */

typedef enum isolde_status {
    ISOLDE_OK = 0,
    ISOLDE_ERR_PARSE,    /* the input is not a history of its format (position given) */
    ISOLDE_ERR_IO,       /* a file, process or database could not be used */
    ISOLDE_ERR_USAGE,    /* a bad argument or option (unknown model, bad value) */
    ISOLDE_ERR_LIMIT,    /* the input exceeds a limit isolde sets (size, nesting) */
    ISOLDE_ERR_NOMEM,    /* memory ran out */
    ISOLDE_ERR_INTERNAL, /* a broken invariant: a bug in isolde */
    ISOLDE_ERR_CANCELLED /* another thread cancelled the call (isolde_stream_cancel) */
} isolde_status;

/* Where and why something failed. line and col are 1-based, 0 when the
 * failure is not tied to a position; file is "" when it is not tied to a
 * file. Never holds a password: drivers report endpoints without them. */
typedef struct isolde_error {
    isolde_status code;
    char file[256];
    long line, col;
    char msg[512];
} isolde_error;

/* A word for a status ("parse error", "out of memory", ...). */
ISOLDE_API const char *isolde_status_name(isolde_status s);
/* The error as one line, "file:line:col: message" (the parts it has), into
 * buf (always NUL-terminated when size > 0). Returns the length it needs. */
ISOLDE_API size_t isolde_error_text(const isolde_error *e, char *buf, size_t size);

/* Called when an allocation of bytes fails, with arg; returns nonzero to
 * have it tried again (having freed memory), 0 to fail the call that is
 * running with ISOLDE_ERR_NOMEM. NULL (the default): fail the call. The
 * handler may run on any thread the library runs. */
typedef int (*isolde_oom_handler)(size_t bytes, void *arg);
ISOLDE_API void isolde_set_oom_handler(isolde_oom_handler fn, void *arg);

/* ---- histories ------------------------------------------------------- */

/* Formats a history can be read from (see docs/FORMATS.md). */
typedef enum isolde_format {
    ISOLDE_FORMAT_AUTO = 0,  /* detect from content */
    ISOLDE_FORMAT_EDN,       /* Jepsen history.edn: op maps, one per line or in a vector */
    ISOLDE_FORMAT_JSON,      /* elle-cli: one JSON array of op objects */
    ISOLDE_FORMAT_JSONL,     /* one JSON op object per line */
    ISOLDE_FORMAT_ONELITE,   /* OneLite: header line, then one completed txn per line */
    ISOLDE_FORMAT_ISOCHECK,  /* IsoCheck: JSON lines with '#' comment lines */
    ISOLDE_FORMAT_JEPSEN_LOG, /* old jepsen.log text lines: "INFO jepsen.util - 2 :ok :read 4" */
    ISOLDE_FORMAT_JEPSEN_TXT, /* Jepsen's history.txt: "3 <TAB> :invoke <TAB> :read <TAB> nil" */
    ISOLDE_FORMAT_PLUME,     /* Plume's text (PolySI, AWDIT): "r(KEY,VALUE,SESSION,TXN)" lines */
    ISOLDE_FORMAT_DBCOP,     /* dbcop's history (PolySI): bincode of sessions of transactions */
    ISOLDE_FORMAT_AWDIT,     /* AWDIT's test format: "r KEY VALUE" lines, '-' and '=' lines between */
    ISOLDE_FORMAT_COBRA,     /* Cobra's logs: a directory of binary .log files, one a session */
    ISOLDE_FORMAT_CHRONOS    /* Chronos / Aion (TimeKiller): a JSON array of transactions with timestamps */
} isolde_format;

/* What the operations of a history mean. */
typedef enum isolde_workload {
    ISOLDE_WORKLOAD_AUTO = 0,     /* from the history: the :f names and micro-ops (docs/LINEARIZABILITY.md) */
    ISOLDE_WORKLOAD_LIST_APPEND,
    ISOLDE_WORKLOAD_RW_REGISTER,
    ISOLDE_WORKLOAD_REGISTER,     /* linearizability: read / write */
    ISOLDE_WORKLOAD_CAS_REGISTER, /* linearizability: read / write / cas */
    ISOLDE_WORKLOAD_KV,           /* linearizability: a register per key */
    ISOLDE_WORKLOAD_MUTEX,        /* linearizability: acquire / release */
    ISOLDE_WORKLOAD_FIFO_QUEUE,   /* linearizability: enqueue / dequeue */
    ISOLDE_WORKLOAD_LIN_SET,      /* linearizability: add / read ("set" is its old name) */
    ISOLDE_WORKLOAD_MULTI_REGISTER, /* linearizability: Knossos's multi-register (:txn of
                                       [:read k v] / [:write k v]) */
    ISOLDE_WORKLOAD_PORCUPINE_KV, /* linearizability: Porcupine's kv (:get / :put / :append
                                     of strings, per key) */
    ISOLDE_WORKLOAD_BANK,         /* Jepsen's bank: reads of every balance (docs/CHECKERS.md) */
    ISOLDE_WORKLOAD_SET,          /* Jepsen's set: adds, a final read */
    ISOLDE_WORKLOAD_SET_FULL,     /* Jepsen's set-full: adds and reads, per element */
    ISOLDE_WORKLOAD_COUNTER,      /* Jepsen's counter: adds and reads */
    ISOLDE_WORKLOAD_LONG_FORK     /* Jepsen's long-fork: inserts, reads of key groups */
} isolde_workload;

/* A history: its ops in history order, every value they hold. Opaque. */
typedef struct isolde_history isolde_history;

typedef struct isolde_read_opts {
    size_t size;             /* sizeof(isolde_read_opts), set by _init */
    isolde_format format;    /* AUTO (default): detect from content */
} isolde_read_opts;

ISOLDE_API void isolde_read_opts_init(isolde_read_opts *o);

/* Read the file at path ("-": standard input; a directory: Cobra's logs,
 * a session a .log file; gzip data is inflated when the library has zlib) (o may be NULL: defaults). On success *out is a
 * new history (free with isolde_history_free). Errors: IO (cannot open or
 * read; a mapped file that shrank while it was read), PARSE (with the
 * position of the first bad byte), LIMIT (docs/FORMATS.md), NOMEM, USAGE
 * (gzip without zlib). A history of one op per line (JSON, EDN) whose
 * last line has no newline and does not parse, as a writer killed while
 * it wrote the line leaves it, is read without that line, and says so
 * (isolde_history_warnings). A regular file is memory-mapped; to survive another
 * process truncating it, the library installs a SIGBUS handler of its own
 * (that only unwinds its own reads) when the program has none -- and when
 * it has one, the file is read instead. */
ISOLDE_API isolde_status isolde_history_read_file(const char *path, const isolde_read_opts *o,
                                                  isolde_history **out, isolde_error *err);
/* The same from data[0, len) (need not be NUL-terminated); name is used in
 * error messages only. */
ISOLDE_API isolde_status isolde_history_read_mem(const char *name, const char *data, size_t len,
                                                 const isolde_read_opts *o, isolde_history **out,
                                                 isolde_error *err);
/* An empty history to grow with isolde_history_append_mem: *out is new.
 * The format must be one read line by line (EDN one op per line, JSON
 * lines, IsoCheck, jepsen.log) or AUTO (then the first append decides). */
ISOLDE_API isolde_status isolde_history_new(const char *name, const isolde_read_opts *o,
                                            isolde_history **out, isolde_error *err);
/* Append the ops of data[0, len), which holds complete lines, to h; line
 * numbers in errors continue from the lines appended before. A history
 * may be checked between appends; a result refers to the history as it
 * was checked, and must be freed before the next append. On failure h is
 * as it was before the call. */
ISOLDE_API isolde_status isolde_history_append_mem(isolde_history *h, const char *data, size_t len,
                                                   isolde_error *err);
/* Warnings about a history that reads but deserves a word: a last line
 * cut short that was left out (a read of a history of one op per line,
 * JSON or EDN, whose last line has no newline and does not parse: what a
 * writer killed while it wrote the line leaves; docs/FORMATS.md), a
 * completion with no invocation before it on its process (Elle checks it
 * as a transaction of its own). (A map or JSON object that names a key
 * twice is no warning but an error: which value was meant cannot be told.)
 * Each is an isolde_error (code ISOLDE_OK) at the first place
 * it happened, with how many in all; up to max go to out[], *n says how
 * many there are. */
ISOLDE_API isolde_status isolde_history_warnings(const isolde_history *h, isolde_error *out, size_t max,
                                                 size_t *n, isolde_error *err);
ISOLDE_API void isolde_history_free(isolde_history *h);
ISOLDE_API size_t isolde_history_op_count(const isolde_history *h);
/* The format the history was read as (after detection). */
ISOLDE_API isolde_format isolde_history_format(const isolde_history *h);
/* Write h to out in format f: its ops one a line as Elle's JSON lines
 * (JSONL), elle-cli's JSON array (JSON) or Jepsen's EDN (EDN); its client
 * transactions as Plume's text (PLUME) or dbcop's bincode (DBCOP), which
 * hold committed and aborted transactions of reads and writes of integer
 * registers in sessions, and no time (docs/FORMATS.md). What f cannot hold
 * is an error naming the op and what it is, before anything is written:
 * USAGE (also for a format isolde does not write), IO (a short write),
 * NOMEM. */
ISOLDE_API isolde_status isolde_history_write(const isolde_history *h, isolde_format f, FILE *out,
                                              isolde_error *err);

/* Names of formats ("edn", "jsonl", ...) and workloads ("list-append",
 * "cas-register", ...), and back; unknown names are ISOLDE_ERR_USAGE. */
ISOLDE_API const char *isolde_format_name(isolde_format f);
ISOLDE_API isolde_status isolde_format_parse(const char *name, isolde_format *out);
ISOLDE_API const char *isolde_workload_name(isolde_workload w);
ISOLDE_API isolde_status isolde_workload_parse(const char *name, isolde_workload *out);
/* The i-th workload's name (list-append first), NULL past the last. */
ISOLDE_API const char *isolde_workload_at(size_t i);

/* "Did you mean ...?": of the names name_at(0, arg), name_at(1, arg), ...
 * (until one is NULL), the one closest to word by edit distance (case
 * ignored), when it is close enough to be a typo (at most a third of
 * word's letters changed, at least one); NULL if none is. Borrowed: one of
 * the names. */
typedef const char *(*isolde_name_at)(size_t i, void *arg);
ISOLDE_API const char *isolde_closest_name(const char *word, isolde_name_at name_at, void *arg);

/* ---- checking ------------------------------------------------------- */

/* One option a checker or a backend declares (isolde_checker_option,
 * isolde_backend_option), given as "name=value" (a flag as "name"): its
 * name (as --name on the CLI), the kind of value, a word for the value in
 * help ("MS"; NULL for a flag), its default as text (NULL: none) and one
 * line of help. */
typedef enum isolde_option_type {
    ISOLDE_OPTION_FLAG, ISOLDE_OPTION_STRING, ISOLDE_OPTION_INT, ISOLDE_OPTION_DOUBLE
} isolde_option_type;
typedef struct isolde_option {
    const char *name;
    isolde_option_type type;
    const char *arg;
    const char *dflt;
    const char *help;
} isolde_option;


/* Verdicts (also the CLI's exit statuses 0, 1, 2; 3 is an error). */
typedef enum isolde_validity {
    ISOLDE_VALID = 0,   /* no anomaly the requested models forbid */
    ISOLDE_INVALID = 1, /* anomalies found */
    ISOLDE_UNKNOWN = 2  /* e.g. empty transaction graph, search out of budget */
} isolde_validity;

typedef struct isolde_check_opts {
    size_t size;                  /* sizeof(isolde_check_opts), set by _init */
    isolde_workload workload;     /* AUTO (default): from the history */
    /* Comma-separated model names (any of Elle's 54). NULL means the
     * default, strict-serializable; "" means no model (only anomalies; with
     * none either nothing is checked, and the verdict is unknown). A model
     * that forbids no anomaly here (isolde_model_not_checked) is not
     * checked: the verdict is then never valid. */
    const char *models;
    /* Comma-separated anomaly names to look for in addition; NULL or "". */
    const char *anomalies;
    long cycle_search_timeout_ms; /* per strongly connected component, within
                                     timeout_ms; 1000; 0 = none */
    int threads;                  /* worker threads; 0 = one per core */
    /* The whole search's budget, in ms: the linearizability search, or the
     * cycle search over all components (shared fairly); 60000; 0 = none. */
    long timeout_ms;
    /* The checkers' own options as "name=value" strings (a flag as
     * "name"), e.g. "total=30": each one of the names
     * isolde_checker_option lists for some workload. A checker uses those
     * it lists and leaves the others. The strings are borrowed. */
    const char *const *checker_opts;
    size_t n_checker_opts;
} isolde_check_opts;

ISOLDE_API void isolde_check_opts_init(isolde_check_opts *o);

/* USAGE if o names a consistency model, an anomaly or a checker option
 * the check does not know (the message gives the closest known name when
 * one is close), holds a number out of its range (negative threads or
 * timeouts; a checker option's value that is not of its kind), or was not
 * initialised; OK otherwise. Nothing is read: call it before reading a
 * history to fail at once. */
ISOLDE_API isolde_status isolde_check_opts_validate(const isolde_check_opts *o, isolde_error *err);

/* The options workload w's checker uses, by index (their names as
 * checker_opts gives them: rw-register's "wfr-keys", bank's "total",
 * ...); NULL past the last, or for AUTO. Borrowed, static. */
ISOLDE_API const isolde_option *isolde_checker_option(isolde_workload w, size_t i);

/* The names the options take. isolde_model_name(i): the i-th of the 54
 * consistency model names (the 36 canonical models first, then Elle's
 * other names for them), NULL past the end; isolde_model_canonical: the
 * canonical model a name stands for ("serializable" -> "PL-3"), NULL if it
 * is none; isolde_anomaly_name(i): the i-th anomaly name, NULL past the
 * end. The strings are static. */
ISOLDE_API const char *isolde_model_name(size_t i);
ISOLDE_API const char *isolde_model_canonical(const char *name);
ISOLDE_API const char *isolde_anomaly_name(size_t i);
/* 1 if a check with o reports anomaly as a violation (Elle's
 * prohibited-anomaly-types: what o's models forbid, every anomaly o asks
 * for, and every anomaly implying one of those), 0 if not, -1 if o or
 * anomaly names something unknown. */
ISOLDE_API int isolde_check_opts_forbid(const isolde_check_opts *o, const char *anomaly);
/* NULL when a check with -c NAME (any of the 54 names) checks the model
 * in a transactional history, or NAME is no model; else it does not
 * (PRAM, the session guarantees, 1SR, session-serializable,
 * view-serializable: Elle's tables give them no anomaly; linearizable,
 * sequential: models of single-object ops), so such a check cannot say
 * valid, and this says what checks it or implies it instead (static
 * words). */
ISOLDE_API const char *isolde_model_not_checked(const char *name);
/* How a check with -c NAME covers the model on workload ("list-append" or
 * "rw-register"): "complete" (every violation the history reveals is
 * reported), "sound only" (what is reported is a violation; valid means
 * no violation isolde's method can see) or "not applicable" (not
 * checked); NULL for an unknown name or workload. Static strings. */
ISOLDE_API const char *isolde_model_coverage(const char *name, const char *workload);
/* What the coverage of -c NAME on workload rests on, when a build option
 * or a check option changes it (rw-register's serializable, snapshot
 * isolation and their strict and session forms: the exact check, which
 * needs CaDiCaL); NULL otherwise. Static words. */
ISOLDE_API const char *isolde_model_coverage_note(const char *name, const char *workload);

/* A check's result. Opaque. */
typedef struct isolde_result isolde_result;

/* Check h (o may be NULL: defaults). On success *out is a new result that
 * refers to h: free it before h. Errors: USAGE (an unknown model,
 * anomaly or checker option, a number out of its range, options not
 * initialised),
 * PARSE (the history breaks its workload's rules, with the op's position),
 * IO (a file an option names), LIMIT, NOMEM. */
ISOLDE_API isolde_status isolde_check(const isolde_history *h, const isolde_check_opts *o,
                                      isolde_result **out, isolde_error *err);

/* ---- checking a history while it grows ------------------------------ */

/* A check that follows a history as it is written (docs/ONLINE.md):
 * append its bytes as they come, poll for findings that no later line can
 * undo, and at the end take the whole history -- read as
 * isolde_history_read_mem reads those bytes -- to isolde_check for the
 * batch's verdict. Only formats of one op per line grow (as
 * isolde_history_new says). Early findings (docs/ONLINE.md): list-append's
 * cycles, G1a, G1b, internal, dirty-update, duplicate-elements and
 * incompatible-order among complete transactions, with only the edges
 * some read shows; rw-register's G1a, G1b, internal; a linearizability
 * model's nonlinearizable partitions; bank's errors; counter's
 * out-of-bounds reads. */
typedef struct isolde_stream isolde_stream;

typedef struct isolde_stream_stats {
    size_t bytes;        /* appended */
    size_t text_kept;    /* of them, kept as text: what a window check may read again */
    size_t ops;          /* in the complete lines read */
    size_t checked;      /* complete transactions at the last early check */
    size_t findings;     /* handed over by poll */
    size_t early_checks; /* early checks run (of the whole history so far) */
    size_t window_checks; /* early checks of the last ops alone, between them */
} isolde_stream_stats;

/* A finding now certain: its anomaly type, its proof in words and its
 * JSON (valid during the call only). fn must not call the library. */
typedef void (*isolde_stream_fn)(void *arg, const char *type, const char *text, const char *json);

/* A new stream: name for messages (the file's, as isolde_history_read_file
 * names it), ro's format (may be NULL), co the check's options (may be
 * NULL; its strings are borrowed until isolde_stream_free). */
ISOLDE_API isolde_status isolde_stream_open(const char *name, const isolde_read_opts *ro,
                                            const isolde_check_opts *co, isolde_stream **out,
                                            isolde_error *err);
/* Append data[0, len), any bytes: the lines they complete are read at
 * once. Errors: PARSE (a bad line, at its file:line:col; the stream is as
 * it was before the call), USAGE (a format that does not grow by lines),
 * LIMIT, NOMEM. */
ISOLDE_API isolde_status isolde_stream_append(isolde_stream *s, const char *data, size_t len,
                                              isolde_error *err);
/* When an early check is due (lines came since the last one, and twice its
 * time has passed since it ended), run it and pass each certain finding
 * not passed before to fn (may be NULL). Errors: NOMEM. */
ISOLDE_API isolde_status isolde_stream_poll(isolde_stream *s, isolde_stream_fn fn, void *arg,
                                            isolde_error *err);
/* From any thread, while another may be in isolde_stream_poll: the early
 * check in progress stops at its next phase (poll returns ISOLDE_OK, all
 * it allocated freed) and no later poll runs one. Appending and finish
 * still work: for a caller that stops following and wants the final
 * verdict, or none, now. */
ISOLDE_API void isolde_stream_cancel(isolde_stream *s);
ISOLDE_API void isolde_stream_stats_get(const isolde_stream *s, isolde_stream_stats *out);
/* The input is over: *out is the whole history (every byte appended, a
 * last line without its newline too) as isolde_history_read_mem reads it,
 * handed over from the stream; check it with isolde_check for the final
 * verdict. The stream may then be freed (the history is the caller's);
 * it takes no more appends. Errors: as the read's; USAGE after a finish. */
ISOLDE_API isolde_status isolde_stream_finish(isolde_stream *s, isolde_history **out, isolde_error *err);
ISOLDE_API void isolde_stream_free(isolde_stream *s);

/* ---- results -------------------------------------------------------- */

typedef struct isolde_report_opts {
    size_t size;      /* sizeof(isolde_report_opts), set by _init */
    int max_examples; /* proofs printed per anomaly type in text; 3 */
} isolde_report_opts;

ISOLDE_API void isolde_report_opts_init(isolde_report_opts *o);
ISOLDE_API isolde_validity isolde_result_validity(const isolde_result *r);
/* The workload the check ran as: the options', or the one inferred from
 * the history when they said AUTO. */
ISOLDE_API isolde_workload isolde_result_workload(const isolde_result *r);
/* The anomaly types found: a transactional result's sorted by name, as
 * Elle's :anomaly-types; a linearizability result's "nonlinearizable";
 * Jepsen's checkers' in the order of their result map. */
ISOLDE_API size_t isolde_result_type_count(const isolde_result *r);
ISOLDE_API const char *isolde_result_type(const isolde_result *r, size_t i);
/* Number of instances found of one anomaly type (0 if none). */
ISOLDE_API size_t isolde_result_instance_count(const isolde_result *r, const char *type);
/* Elle's :not (weakest models ruled out) and :also-not, friendly names,
 * sorted; a linearizability result that is not linearizable has not
 * "linearizable"; Jepsen's checkers' results have neither. */
ISOLDE_API size_t isolde_result_not_count(const isolde_result *r);
ISOLDE_API const char *isolde_result_not(const isolde_result *r, size_t i);
ISOLDE_API size_t isolde_result_also_not_count(const isolde_result *r);
ISOLDE_API const char *isolde_result_also_not(const isolde_result *r, size_t i);

/* Findings: each anomaly type's instances (isolde_result_instance_count
 * of them), each with its proof in words and its JSON object: Elle's
 * keys for a transactional result, a witness (a partition's longest
 * linearizable prefix and the ops that cannot follow it) for a
 * linearizability result, the error's map for Jepsen's checkers. fn gets
 * findings first .. first + n - 1 of type (those that exist), in order,
 * with i the finding's place among its type's; text and json are valid
 * during the call only: a proof is rendered just before it is passed (a
 * few at a time, on several threads for many), so walking every finding
 * of a large result costs time, not memory. fn must not call the library
 * but for the result's accessors. Errors: USAGE (type is none of the
 * result's types), NOMEM. */
typedef void (*isolde_finding_fn)(void *arg, size_t i, const char *text, const char *json);
ISOLDE_API isolde_status isolde_result_findings(const isolde_result *r, const char *type, size_t first, size_t n,
                                                isolde_finding_fn fn, void *arg, isolde_error *err);

/* Writers. Each renders the proofs it shows as it writes them (r is only
 * read: several threads may write one result at once), and flushes out.
 * o may be NULL. Errors: IO (out did not take it all, e.g. a full disk;
 * the directory could not be written), NOMEM. */
ISOLDE_API isolde_status isolde_result_write_text(const isolde_result *r, FILE *out,
                                                  const isolde_report_opts *o, isolde_error *err);
/* The result as one JSON object: Elle's result map for a transactional
 * result, Knossos's keys for linearizability, Jepsen's map for its
 * checkers (docs/FORMATS.md, docs/CHECKERS.md). */
ISOLDE_API isolde_status isolde_result_write_json(const isolde_result *r, FILE *out, isolde_error *err);
/* One self-contained HTML page (no network): the verdict, every finding
 * with its proof and picture, a timeline of the transactions; for a
 * linearizability result, the ops per partition and where they fail. */
ISOLDE_API isolde_status isolde_result_write_html(const isolde_result *r, FILE *out, isolde_error *err);
/* One text file per anomaly type in dir (made if missing), as Elle's
 * :directory does, and per cycle found its picture, <type>/<n>.dot (and
 * .svg when built with Graphviz's libgvc); results.json (the JSON result)
 * and index.html (the HTML page). A linearizability result writes
 * linearizability.txt, one of Jepsen's checkers <model>.txt (every proof),
 * and both results.json and index.html. */
ISOLDE_API isolde_status isolde_result_write_dir(const isolde_result *r, const char *dir,
                                                 isolde_error *err);
ISOLDE_API void isolde_result_free(isolde_result *r);

/* ---- shrinking -------------------------------------------------------- */

/* The smallest history that still shows an anomaly (docs/SHRINK.md). */
typedef struct isolde_shrink_opts {
    size_t size;          /* sizeof(isolde_shrink_opts), set by _init */
    const char *anomaly;  /* the type to keep; NULL: the check's first */
    size_t instance;      /* the finding of it whose transactions start the search (0) */
    double time_limit_s;  /* no check starts after it (60); the result is then not 1-minimal; 0: none */
} isolde_shrink_opts;

ISOLDE_API void isolde_shrink_opts_init(isolde_shrink_opts *o);

typedef struct isolde_shrink_stats {
    int found;            /* the history has the anomaly (else nothing was written) */
    int minimal;          /* no single transaction (or lone op) of the result can go */
    char anomaly[64];     /* the type kept */
    size_t ops_before, ops_after;
    size_t units_before, units_after; /* transactions (an invocation and its completion) and lone ops */
    size_t witness_units; /* in the finding the search started from */
    size_t mops_dropped;  /* micro-ops left out of the transactions kept */
    size_t checks;        /* candidate histories checked */
    double seconds;
    char comment;         /* what starts a comment line in the history's format ('#', ';') */
    char types[512];      /* the anomaly types the check of the result finds, space-separated */
} isolde_shrink_stats;

/* Reads text[0, len) (a history of one op per line: EDN or JSON lines),
 * checks it with co, and when it has the anomaly writes to out the
 * smallest history found whose check with co still finds its type and no
 * type the whole one has not: the kept ops' lines as they were (a caller
 * may put comment lines before them). Transactions (an invocation with
 * its completion) go or stay whole. Errors: as reading and checking's;
 * USAGE for another format or two ops on one line; NOMEM. */
ISOLDE_API isolde_status isolde_shrink(const char *name, const char *text, size_t len, const isolde_read_opts *ro,
                                       const isolde_check_opts *co, const isolde_shrink_opts *so, FILE *out,
                                       isolde_shrink_stats *st, isolde_error *err);

/* Running against a database, directed scenarios, the fault proxy. */
#include "isolde_run.h"

/* ---- ABI history ------------------------------------------------------
 *
 * What changed, by version (ISOLDE_VERSION_NUMBER), beyond additions at
 * the end of an option struct. Before 1.0.0 a minor version may change
 * the ABI while the soname stays libisolde.so.0: a program built against
 * one 0.x header is rebuilt for the next. From 1.0.0 on, an ABI change is
 * a new major version, and so a new soname.
 *
 * 0.1.0  The first: histories, checks, results and their writers, runs
 *        and their backends, directed scenarios, promises, the fault
 *        proxy.
 *
 * 0.2.0  The house reshaped (the checkers' and the runner's folders):
 *  - isolde_check_opts: wfr_keys, sequential_keys, linearizable_keys,
 *    transaction_order_file, cas_fail (with the isolde_cas_fail enum),
 *    initial_value, bank_total, bank_has_total, allow_negative_balances,
 *    group_size and linearizable_set are gone; checker_opts gives them as
 *    "name=value" strings ("wfr-keys", "transaction-order=FILE",
 *    "cas-fail=noop", "initial-value=V", "total=30",
 *    "allow-negative-balances", "group-size=3", "linearizable"), as
 *    backend_opts gives a backend's, listed by isolde_checker_option.
 *  - isolde_run_opts: the nemesis and fault proxy's fields moved into
 *    .faults (isolde_fault_opts); fault_every and fault_for are
 *    faults.every and faults.duration.
 *  - isolde_option and isolde_option_type serve checkers and backends.
 *  - The writers take a const isolde_result (a program's calls compile
 *    as they are); no writer keeps what it renders.
 *  - isolde_result_write_dir of a Jepsen checker's result writes
 *    results.json and index.html too, as every other kind's does.
 *  - Added: ISOLDE_VERSION and ISOLDE_VERSION_NUMBER (isolde_version.h),
 *    isolde_version_number, isolde_feature, isolde_feature_name,
 *    isolde_checker_option, isolde_result_findings (isolde_finding_fn),
 *    isolde_fault_opts.
 *  - Added (issue 26): the research checkers' formats ISOLDE_FORMAT_PLUME,
 *    _DBCOP, _AWDIT, _COBRA, _CHRONOS (after the others), and
 *    isolde_history_write; isolde_history_read_file reads a directory as
 *    Cobra's logs.
 *  - Added (issue 27): isolde_stream_open, _append, _poll, _finish,
 *    _stats_get, _free (isolde_stream, isolde_stream_stats,
 *    isolde_stream_fn): checking a history while it grows.
 */

#ifdef __cplusplus
}
#endif
#endif /* ISOLDE_H */
