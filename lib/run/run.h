/*
 * run/run.h -- the runner's internal pieces: a transaction as generated
 * and executed, the seeded random source, the workload generator and the
 * JSON-lines history writer. Backends (driver.h) and the simulated
 * database (sim.h) speak in these types.
 */
#ifndef ISO_RUN_H
#define ISO_RUN_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>
#include "util.h"

/* Micro-op functions. */
enum run_f { RUN_R = 0, RUN_APPEND, RUN_W };
/* What a transaction came to; also the recorded op type after invoke. */
enum run_outcome { RUN_OK = 0, RUN_FAIL, RUN_INFO };

#define RUN_MAX_MOPS 64   /* longest transaction (and final-read chunk) */
#define RUN_MAX_KEYS 1024 /* largest hot-key pool */

typedef struct run_mop {
    uint8_t f;        /* enum run_f */
    uint8_t nil;      /* read result is nil (registers; unread lists) */
    int64_t key;
    int64_t value;    /* written value; a register read's result */
    uint32_t off, len; /* a list read's result: res[off .. off+len), or
                        * with text set text[off .. off+len) */
    uint8_t text;     /* the list read is kept as the database's text */
} run_mop;

/* One transaction: its micro-ops and, once run, the values it read. */
typedef struct run_txn {
    run_mop mops[RUN_MAX_MOPS];
    uint32_t n;
    int list_append;  /* 1: append / list reads; 0: w / register reads */
    int64_t *res;     /* list-read elements */
    size_t n_res, cap_res;
    char *text;       /* list reads kept as text: "1,2,3" */
    size_t n_text, cap_text;
    char error[120];  /* why it failed / is indeterminate; "" if none */
} run_txn;

void run_txn_release(run_txn *t);
/* Forget every read result (before the txn is run, or run again). */
void run_txn_clear_reads(run_txn *t);
/* Append one element to the list read by mop i (which must be the last
 * list read begun). Inline: drivers call it once per element read. */
static inline void run_txn_read_elem(run_txn *t, uint32_t i, int64_t elem)
{
    if (t->n_res == t->cap_res) ISO_GROW(t->res, t->cap_res, t->n_res + 1);
    t->res[t->n_res++] = elem;
    t->mops[i].len++;
}
/* Start the result of list read i (empty, not nil). */
void run_txn_read_begin(run_txn *t, uint32_t i);
/* The result of list read i as the n bytes "1,2,3" (integers without
 * leading zeros, joined by commas; "" for an empty list), kept as text so
 * that it is neither parsed nor printed again. Returns 0, or -1 (nothing
 * kept) if s is not such a list or an element might not fit in 64 bits. */
int run_txn_read_text(run_txn *t, uint32_t i, const char *s, size_t n);
/* Whether s[0..n) is such a list (list_text.c). */
int run_list_text_ok(const char *s, size_t n);

/* splitmix64: small, fast, and the same sequence on every platform. */
static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n), n > 0. */
static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}
/* Uniform in [0, 1). */
static inline double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- generator ---- */

typedef struct gen_params {
    int list_append;
    long txns;              /* transactions before the final reads */
    int keys;               /* hot-key pool size, 1..RUN_MAX_KEYS */
    int max_writes_per_key; /* a key retires after this many writes */
    int max_txn_length;     /* 1..RUN_MAX_MOPS */
    double read_ratio;      /* share of reads, 0..1 */
    double zipf;            /* skew exponent over the pool; 0 = uniform */
    uint64_t seed;
} gen_params;

/* Fixed-size (no pointers), so that forked clients can share it. */
typedef struct gen {
    gen_params p;
    uint32_t read_below;           /* a micro-op reads when 23 random bits are below */
    uint64_t rng;
    long made;                     /* transactions handed out */
    int64_t next_key;              /* keys 0 .. next_key-1 exist */
    int64_t final_key;             /* next key the final reads visit */
    int64_t pool_key[RUN_MAX_KEYS];
    uint32_t pool_writes[RUN_MAX_KEYS];
    double cdf[RUN_MAX_KEYS];      /* zipf: cumulative weights, last = 1 */
} gen;

void gen_init(gen *g, const gen_params *p);
/* Fill t with the next transaction; returns 0 when all have been made. */
int gen_next(gen *g, run_txn *t);
/* Fill t with the next chunk of the final read of every key; returns 0
 * when every key has been read. */
int gen_final(gen *g, run_txn *t);

/* ---- history lines ---- */

/* Append t's micro-ops as a JSON array; reads are null unless with_reads. */
void rec_value(iso_buf *b, const run_txn *t, int with_reads);
/* t's value as its invocation records it (reads null), written at p;
 * null_at[i] is where read i's null is in it. Returns its end. At most
 * REC_VALUE_MAX bytes (any transaction of at most RUN_MAX_MOPS). */
#define REC_VALUE_MAX (2 + RUN_MAX_MOPS * (16 + 2 * 21))
char *rec_put_invoke_value(char *p, const run_txn *t, uint32_t *null_at);
/* Append the value of t's ok completion to b: inv[0..n_inv) and null_at as
 * rec_put_invoke_value left them for t, each read's null replaced by its
 * result (the same bytes as rec_value(b, t, 1), without printing the keys
 * and written values again). */
void rec_ok_value(iso_buf *b, const char *inv, size_t n_inv, const uint32_t *null_at,
                  const run_txn *t);
/* Append one Elle JSON line: type is ISO_OP_* (history.h numbering:
 * 0 invoke, 1 ok, 2 fail, 3 info). Reads are null unless type is ok. */
void rec_line(iso_buf *b, int64_t index, int type, int64_t process,
              const run_txn *t, int64_t time_ns);
/* The same line in four pieces, for writers that take index and time
 * under a lock and format the rest outside it:
 *   rec_head   {"index":I,"type":"ok","process":P,"f":"txn","value":
 *   rec_value  [["append",3,7],["r",4,[1,7]]]
 *   rec_time   ,"time":NS
 *   rec_tail   ,"error":"..."}\n  or  }\n
 * rec_head and rec_time write at most REC_HEAD_MAX / REC_TIME_MAX bytes
 * to out and return how many. */
#define REC_HEAD_MAX 128
#define REC_TIME_MAX 32
size_t rec_head(char *out, int64_t index, int type, int64_t process);
size_t rec_time(char *out, int64_t time_ns);
/* rec_head written so that it ends at end (index, process >= 0); returns
 * where it starts, at most REC_HEAD_MAX bytes before end. */
char *rec_head_before(char *end, int64_t index, int type, int64_t process);
void rec_tail(iso_buf *b, int type, const run_txn *t);
/* Whether rec_tail writes an error for this op (else the tail is "}\n"). */
int rec_has_error(int type, const run_txn *t);

/* ---- the history file (hist.c) ---- */

/* Lives in memory shared by every client (no pointers but the mapping,
 * which is made before clients fork). */
typedef struct hist {
    int fd;
    int err;         /* errno of the first failure; 0 if none */
    char *map;       /* the file, mapped; NULL: write(2) */
    size_t reserved; /* address space behind map */
    size_t size;     /* file size: history, then newlines */
    size_t len;      /* bytes of history */
    size_t n_pend;   /* write(2): bytes waiting in pend */
    char pend[1 << 20];
} hist;

/* Record into fd (open for writing, borrowed); path names the same file,
 * which is mapped if it is a regular file that can be opened read-write. */
void hist_open(hist *h, int fd, const char *path);
/* Append one line given in n pieces. A line with flush set, and every
 * line before it, is in the file (page cache) when this returns. Returns
 * 0, or -1 with h->err set; after an error nothing more is recorded. */
int hist_append(hist *h, const struct iovec *v, int n, int flush);
/* Write out what waits, cut the file to the history, drop the mapping;
 * the caller closes fd. Returns 0, or -1 with h->err set. */
int hist_close(hist *h);

#endif
