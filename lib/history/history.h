/*
 * history/history.h -- a history as read: the ops in file order, their
 * values in a store. Readers fill it; nothing here knows about workloads.
 *
 *   history.c      Elle's op-field rules (and Jepsen's :index rule), the
 *                  warnings, why a history has nothing to check, printing ops
 *   read.c         reading a file or memory, appending; the format table
 *   input.c        a file's bytes: mapped, read or inflated (input.h)
 *   detect.c       the format from the first bytes
 *   cursor.c       the reading cursor over a value store (cursor.h)
 *   read_edn.c     EDN (read_edn.h); read_json.c JSON and JSON lines (read_json.h);
 *   read_onelite.c, read_jepsen_log.c   the other formats (read_jepsen_log.c:
 *                  Jepsen's text op lines, history.txt and jepsen.log)
 *   read_plume.c, read_dbcop.c, read_awdit.c, read_cobra.c, read_chronos.c
 *                  the research checkers' formats, sessions of register
 *                  transactions made into ops by sessions.c (sessions.h);
 *                  input_dir.c a directory of Cobra's logs
 *   write.c        a history written in a format (isolde convert)
 *   read_split.c   one-op-per-line input in parts on two threads (split.h)
 *   merge.c        a history read separately copied to the end of another
 *   mop.h          the micro-op fast path shared by the EDN and JSON readers
 *   txn.c          pairing invocations with completions (txn.h)
 *
 * A new format is a read_<name>.c and a row in read.c's format table.
 * Rule: history/ includes core/ only.
 *
 * Readers parse each op map into iso_val values and hand it to
 * iso_history_add_op_map, which applies Elle's field rules (type, process,
 * index, time, f, value). The order of ops[] is the history order used for
 * pairing and real-time order; a reader whose format gives times instead of
 * an order (OneLite) sorts its events before adding them.
 */
#ifndef ISO_HISTORY_H
#define ISO_HISTORY_H

#include "core/keys.h"
#include "core/value.h"

enum iso_op_type { ISO_OP_INVOKE = 0, ISO_OP_OK, ISO_OP_FAIL, ISO_OP_INFO };

/* The limits on untrusted input, all in one place (docs/FORMATS.md,
 * "Limits"): a read that passes one fails with ISOLDE_ERR_LIMIT where it
 * did, so that time and memory stay linear in the input's size. */
#define ISO_MAX_DEPTH 256               /* vectors, lists, sets and maps open at once */
#define ISO_MAX_ITEMS ((size_t)1 << 28) /* items of one of them (a map's keys and values) */
#define ISO_MAX_OPS ((size_t)1 << 28)   /* ops of one history (iso_op's ids) */
#define ISO_MAX_ATOM ((size_t)1 << 24)  /* bytes of one string, keyword, symbol, number or tag */
/* bytes of one input (a stream: at most half the memory): 2^36, or what a 32-bit size_t holds */
#if SIZE_MAX > 0xFFFFFFFFu
#define ISO_MAX_INPUT ((size_t)1 << 36)
#else
#define ISO_MAX_INPUT SIZE_MAX
#endif

/* 40 bytes: histories hold millions. An op's :process, :f and :error,
 * which repeat op after op, live once in the history: the process in
 * h->procs (a dense id per distinct value), :f and :error in the extras
 * table. At most ISO_MAX_OPS ops, so that both ids fit. */
typedef struct iso_op {
    int64_t index;     /* :index, given or dense */
    int64_t time;      /* :time in ns; -1 when absent */
    iso_val value;     /* :value, or nil */
    uint32_t line, col; /* where the op starts in the input (1-based) */
    uint32_t process;  /* h->procs.vals[process]: the :process value (nil when absent) */
    uint32_t extra : 28; /* h->extras[extra]: :f and :error (see iso_op_f) */
    uint32_t type : 3;   /* enum iso_op_type */
    uint32_t client : 1; /* :process is an integer, of any size (Elle's client-op?) */
} iso_op;

typedef struct iso_op_extra {
    iso_val f;         /* :f, or nil */
    iso_val error;     /* :error, or nil (kept for reports) */
} iso_op_extra;

/* Input that reads but deserves a word, counted per kind with the place
 * and text of the first (isolde_history_warnings adds the ones it finds
 * in the ops themselves): a last line cut short and left out (read.c;
 * what: why it does not parse). */
enum iso_warn_kind { ISO_WARN_CUT_LINE, ISO_WARN_KINDS };
typedef struct iso_warn {
    size_t count;
    uint32_t line, col;
    char what[128];
} iso_warn;

struct isolde_history {
    char *name;                   /* file name, for messages */
    isolde_format format;            /* as read */
    isolde_workload workload_hint;   /* from a OneLite header, else AUTO */
    iso_store store;
    iso_op *ops;
    size_t n_ops, cap_ops;
    iso_keys procs;               /* the ops' :process values, interned */
    iso_op_extra *extras;
    size_t n_extras, cap_extras;
    int dense_index;              /* first op had no :index: all get 0..n-1 */
    int index_fixed;              /* dense_index is decided (ops came before) */
    /* Jepsen's :index rule across parts read separately (an append, the
     * second half of a split read): the ops before this part, where its
     * dense indices start (SIZE_MAX: unknown, so a given :index cannot be
     * checked here), and the :index and line of the last of them. */
    size_t index_base;
    int has_before;
    int64_t before_index;
    uint32_t before_line;
    size_t line_base;             /* lines read before, by earlier appends */
    /* linearizability: the format reads a failed CAS as one that ran and
     * found another value (jepsen.log), not as one that did not happen */
    int cas_fail_false;
    /* the input is a private file mapping: readers may give its consumed
     * pages back (madvise) while reading */
    int drop_input;
    /* the threads its input was read on: 2 when read_split.c's halves ran
     * (and were kept), else 1 */
    int read_threads;
    iso_warn warn[ISO_WARN_KINDS];
    /* when no op of the input was a client op (read.c sets them then):
     * lines read, and the format the bytes look like */
    size_t n_lines;
    isolde_format looks_like;
};

isolde_history *iso_history_new(const char *name, isolde_format format);
/* h emptied for reuse, its memory kept: no ops, values or warnings, only
 * the atoms a new history starts with. */
void iso_history_clear(isolde_history *h);

/* Add an op from a parsed map (EDN or JSON). line/col locate the map. */
int iso_history_add_op_map(isolde_history *h, iso_val map, uint32_t line,
                           uint32_t col, isolde_error *err);
/* The same from the fields of an op a reader picked out itself:
 * fields[i] is set where have[i], i = iso_history_field(key) of its key. */
#define ISO_OP_FIELDS 8
int iso_history_field(iso_val key); /* :type .. :index, :key as 0..7, else -1 */
int iso_history_add_op_fields(isolde_history *h, const iso_val *fields, const uint8_t *have,
                              uint32_t line, uint32_t col, isolde_error *err);
/* Add an op built by a reader that does not produce maps (op->process,
 * op->extra and op->client are set here), with its :process, :f and
 * :error (nil when absent): 0, or -1 past ISO_MAX_OPS. */
int iso_history_add_op(isolde_history *h, const iso_op *op, iso_val process, iso_val f, iso_val error,
                       isolde_error *err);

/* Count a warning of kind at line:col (what: its first's words). */
void iso_history_warn(isolde_history *h, enum iso_warn_kind kind, uint32_t line, uint32_t col,
                      const char *what);

/* Why h has nothing to check: 1 with the reason in why (the lines read,
 * the ops, why none is a client op) when no op is a client op, else 0. */
int iso_history_no_client_op(const isolde_history *h, iso_buf *why);

/* A line of h2's, after h's first `lines`. */
static inline uint32_t iso_line_after(uint32_t line, size_t lines)
{
    return lines >= UINT32_MAX - line ? UINT32_MAX : (uint32_t)(line + lines);
}
/* Everything h2 read copied to the end of h (merge.c): atoms renumbered,
 * composites after h's, ops after h's (renumbered when indices are dense,
 * lines after h's first `lines`). h2 is unchanged.
 * 0, or -1 (h unchanged) when the two hold more than ISO_MAX_OPS ops. */
int iso_history_merge(isolde_history *h, const isolde_history *h2, size_t lines);

/* Elle's client-op?: an integer :process, of any size. */
static inline int iso_op_is_client(const iso_op *op) { return op->client; }
static inline iso_val iso_op_process(const isolde_history *h, const iso_op *op)
{
    return h->procs.vals[op->process];
}
/* A table with one entry per process id (iso_op.process), each ISO_NONE:
 * who a process has open, or did last. To free. */
uint32_t *iso_history_per_process(const isolde_history *h);
static inline iso_val iso_op_f(const isolde_history *h, const iso_op *op) { return h->extras[op->extra].f; }
static inline iso_val iso_op_error(const isolde_history *h, const iso_op *op)
{
    return h->extras[op->extra].error;
}

/* Print an op as Elle prints it, {:index 0, :time 5, :type :ok, :process 0, :f :txn,
 * :value [...]}, with only the fields the input had: no :time when it had
 * none (time -1), no :f or :error when nil. */
void iso_op_edn(const isolde_history *h, const iso_op *op, iso_buf *out);
void iso_op_json(const isolde_history *h, const iso_op *op, iso_buf *out);
const char *iso_op_type_name(int type);

#endif
