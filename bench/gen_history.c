/*
 * bench/gen_history.c -- writes a synthetic Elle-compatible transactional
 * history (list-append or rw-register) for the benchmarks, fast: 1M
 * transactions of JSON lines in a few seconds, no allocation per op.
 *
 * P clients run transactions of 1-4 micro-ops over a rotating pool of hot
 * keys; a key retires after MAX_WRITES writes, so values are unique per key.
 * Each step advances one random client by one stage (invoke, one micro-op,
 * commit, completion), so a client's invocation and completion are
 * interleaved with the other clients' ops. About 3% of transactions fail and
 * 1% end as info (taking effect or not); an info client continues as a new
 * process, as in Jepsen. With -I none does: such a transaction ends ok when
 * it took effect, fail when it did not (for formats without unknown
 * outcomes: Plume's, dbcop's), the rest unchanged.
 *
 * valid (default): every transaction takes effect atomically at its commit
 *   stage, inside its invoke/complete interval, and reads the state there:
 *   the history is strict-serializable.
 * anomalous (-a): most transactions misbehave: reads from a stale snapshot
 *   (G-single, G2-item, lost updates, real-time violations), reads of the
 *   latest state at each micro-op with writes at commit (read skew), or
 *   writes visible at once (G1c, G1b). Reads are always prefixes of the key's
 *   final order, so the version orders stay consistent.
 *
 * rings (-r C): C independent strongly connected components of TXNS / C
 *   transactions each, all concurrent (no real-time or process order).
 *   Transaction i of a ring writes its own key once and reads the keys of
 *   its predecessor and of RING_CHORDS random earlier ones at most
 *   RING_SPAN back, ring-wise: wr edges only, so each ring is one G1c
 *   component whose shortest cycles are about its size / RING_SPAN long.
 *   Finding a cycle is one breadth-first search; proving one shortest is
 *   one per transaction.
 *
 *   gen_history [-m list-append|rw-register] [-n TXNS] [-p PROCS]
 *               [-k HOT_KEYS] [-f jsonl|edn] [-a] [-I] [-r RINGS] [-s SEED] > history
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_MOPS = 4, RING_CHORDS = 4, RING_SPAN = 32, MAX_WRITES = 16, OUT_SIZE = 1 << 20, LINE_MAX_BYTES = 1024 };
enum { F_READ, F_WRITE };
enum { T_OK, T_FAIL, T_INFO };
enum { S_IDLE, S_RUN, S_DONE };
/* How a transaction sees and changes the state (anomalous mode mixes them). */
enum { I_SERIAL, I_STALE, I_COMMITTED, I_DIRTY };
#define SNAP_NOW UINT32_MAX

struct key {
    uint32_t n, issued;            /* elements in the order, values handed out */
    uint8_t val[MAX_WRITES];       /* the key's version order */
    uint32_t seq[MAX_WRITES];      /* when each element became visible */
};

struct mop {
    uint32_t key;
    uint8_t f, val, len;           /* len: prefix of the key's order read */
};

struct proc {
    int64_t id;
    uint32_t snap;
    uint8_t state, step, nm, iso, type;
    struct mop m[RING_CHORDS + 2];  /* MAX_MOPS, or a ring's write and reads */
};

struct gen {
    int register_mode, edn, anomalous, no_info;
    uint32_t nprocs, nhot, rings;
    uint64_t ntxns, invoked, busy, index, tick, rng, seed;
    uint32_t seq;                  /* visibility clock */
    struct proc *procs;
    struct key *keys;
    size_t nkeys, capkeys;
    uint32_t *hot;                 /* the pool of hot keys */
    char out[OUT_SIZE];
    size_t pos;
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return (uint32_t)(((g->rng * 2685821657736338717ull) >> 32) % n);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("gen_history: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

/* ---- output ---- */

static void flush(struct gen *g)
{
    if (g->pos && fwrite(g->out, 1, g->pos, stdout) != g->pos) {
        perror("gen_history: write");
        exit(2);
    }
    g->pos = 0;
}

static void put(struct gen *g, const char *s)
{
    size_t n = strlen(s);
    memcpy(g->out + g->pos, s, n);
    g->pos += n;
}

static void put_u(struct gen *g, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) g->out[g->pos++] = tmp[--n];
}

static void put_read(struct gen *g, const struct mop *m, int known)
{
    static const struct key ring_key = {.n = 1, .val = {1}}; /* rings: one value */
    const struct key *k = g->rings ? &ring_key : &g->keys[m->key];
    const char *nil = g->edn ? "nil" : "null";
    if (!known) {
        put(g, nil);
    } else if (g->register_mode) {
        if (m->len) put_u(g, k->val[m->len - 1]);
        else put(g, nil);
    } else {
        g->out[g->pos++] = '[';
        for (uint8_t i = 0; i < m->len; i++) {
            if (i) g->out[g->pos++] = g->edn ? ' ' : ',';
            put_u(g, k->val[i]);
        }
        g->out[g->pos++] = ']';
    }
}

static void put_mop(struct gen *g, const struct mop *m, int known)
{
    static const char *const names[2][2][2] = {
        {{"[\"r\",", "[\"append\","}, {"[\"r\",", "[\"w\","}},
        {{"[:r ", "[:append "}, {"[:r ", "[:w "}},
    };
    put(g, names[g->edn][g->register_mode][m->f]);
    put_u(g, m->key);
    put(g, g->edn ? " " : ",");
    if (m->f == F_READ) put_read(g, m, known);
    else put_u(g, m->val);
    g->out[g->pos++] = ']';
}

/* One op line; completion of an ok transaction carries its reads. */
static void emit(struct gen *g, const struct proc *p, int complete)
{
    static const char *const types[] = {"ok", "fail", "info"};
    const char *type = complete ? types[p->type] : "invoke";
    int known = complete && p->type == T_OK;
    put(g, g->edn ? "{:type :" : "{\"type\":\"");
    put(g, type);
    put(g, g->edn ? ", :f :txn, :value [" : "\",\"f\":\"txn\",\"value\":[");
    for (uint8_t i = 0; i < p->nm; i++) {
        if (i) put(g, g->edn ? " " : ",");
        put_mop(g, &p->m[i], known);
    }
    put(g, g->edn ? "], :process " : "],\"process\":");
    put_u(g, (uint64_t)p->id);
    put(g, g->edn ? ", :time " : ",\"time\":");
    put_u(g, g->tick * 1000 + rnd(g, 1000));
    put(g, g->edn ? ", :index " : ",\"index\":");
    put_u(g, g->index++);
    put(g, "}\n");
    if (g->pos > OUT_SIZE - LINE_MAX_BYTES) flush(g);
}

/* ---- the simulated database ---- */

static uint32_t new_key(struct gen *g)
{
    if (g->nkeys == g->capkeys) {
        g->capkeys = g->capkeys ? 2 * g->capkeys : 1024;
        g->keys = xrealloc(g->keys, g->capkeys * sizeof *g->keys);
    }
    memset(&g->keys[g->nkeys], 0, sizeof *g->keys);
    return (uint32_t)g->nkeys++;
}

/* A fresh value for a hot key; the key retires after MAX_WRITES of them. */
static uint8_t issue(struct gen *g, uint32_t slot)
{
    struct key *k = &g->keys[g->hot[slot]];
    uint8_t v = (uint8_t)++k->issued;
    if (k->issued == MAX_WRITES) g->hot[slot] = new_key(g);
    return v;
}

/* Length of the key's order as of visibility time snap. */
static uint8_t read_len(const struct gen *g, uint32_t key, uint32_t snap)
{
    const struct key *k = &g->keys[key];
    uint32_t n = k->n;
    if (snap != SNAP_NOW)
        while (n && k->seq[n - 1] > snap) n--;
    return (uint8_t)n;
}

static void apply_write(struct gen *g, const struct mop *m, uint32_t seq)
{
    struct key *k = &g->keys[m->key];
    k->val[k->n] = m->val;
    k->seq[k->n++] = seq;
}

static int touched(const struct proc *p, uint8_t upto, uint32_t key)
{
    for (uint8_t i = 0; i < upto; i++)
        if (p->m[i].key == key) return 1;
    return 0;
}

static uint8_t pick_iso(struct gen *g)
{
    uint32_t r = rnd(g, 100);
    if (!g->anomalous || r < 25) return I_SERIAL;
    if (r < 55) return I_STALE;
    return r < 85 ? I_COMMITTED : I_DIRTY;
}

/* Non-serial transactions read a key at most once and never after writing
 * it, so their reads stay internally consistent. */
static void make_txn(struct gen *g, struct proc *p)
{
    p->iso = pick_iso(g);
    p->nm = (uint8_t)(1 + rnd(g, MAX_MOPS));
    for (uint8_t i = 0; i < p->nm; i++) {
        struct mop *m = &p->m[i];
        uint32_t slot = rnd(g, g->nhot);
        m->key = g->hot[slot];
        m->f = rnd(g, 2) ? F_WRITE : F_READ;
        if (p->iso != I_SERIAL && touched(p, i, m->key)) m->f = F_WRITE;
        m->val = m->f == F_WRITE ? issue(g, slot) : 0;
        m->len = 0;
    }
    uint32_t lag = rnd(g, 2 * g->nprocs + 1);
    p->snap = p->iso == I_STALE ? (g->seq > lag ? g->seq - lag : 0) : SNAP_NOW;
}

/* The per-micro-op stage: only committed-read and dirty txns act here. */
static void run_mop(struct gen *g, struct proc *p, struct mop *m)
{
    if (p->iso != I_COMMITTED && p->iso != I_DIRTY) return;
    if (m->f == F_READ) m->len = read_len(g, m->key, SNAP_NOW);
    else if (p->iso == I_DIRTY) apply_write(g, m, ++g->seq);
}

static uint8_t outcome(struct gen *g, const struct proc *p)
{
    uint32_t r = rnd(g, 100);
    if (r < 1) return T_INFO;
    return r < 4 && p->iso != I_DIRTY ? T_FAIL : T_OK;
}

/* The commit point: serial and stale txns read here, all but dirty write. */
static void commit(struct gen *g, struct proc *p)
{
    p->type = outcome(g, p);
    int applied = p->type == T_OK || (p->type == T_INFO && rnd(g, 2));
    if (g->no_info && p->type == T_INFO) p->type = applied ? T_OK : T_FAIL;
    if (!applied || p->iso == I_DIRTY) return;
    uint32_t seq = ++g->seq;
    for (uint8_t i = 0; i < p->nm; i++) {
        struct mop *m = &p->m[i];
        if (m->f == F_WRITE) apply_write(g, m, seq);
        else if (p->iso != I_COMMITTED) m->len = read_len(g, m->key, p->snap);
    }
}

static void step(struct gen *g, struct proc *p)
{
    switch (p->state) {
    case S_IDLE:
        if (g->invoked == g->ntxns) return;
        g->invoked++;
        g->busy++;
        make_txn(g, p);
        emit(g, p, 0);
        p->state = S_RUN;
        p->step = 0;
        return;
    case S_RUN:
        if (p->step < p->nm) {
            run_mop(g, p, &p->m[p->step++]);
            return;
        }
        commit(g, p);
        p->state = S_DONE;
        return;
    default:
        emit(g, p, 1);
        g->busy--;
        p->state = S_IDLE;
        if (p->type == T_INFO) p->id += g->nprocs;
    }
}

/* ---- rings ---- */

/* A pseudo-random function of (seed, x): the same chords on invocation
 * and completion. */
static uint64_t mix(uint64_t seed, uint64_t x)
{
    x = (x + seed) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 29);
}

/* Transaction i of ring r (of size n): write key r*n+i, read the keys of
 * ring members 1 and 2..RING_SPAN back. Reads see the one value written. */
static void ring_txn(const struct gen *g, struct proc *p, uint64_t r, uint64_t n, uint64_t i)
{
    p->id = (int64_t)(r * n + i);
    p->nm = 0;
    p->type = T_OK;
    p->m[p->nm++] = (struct mop){(uint32_t)(r * n + i), F_WRITE, 1, 0};
    for (int c = 0; c <= RING_CHORDS; c++) {
        uint64_t back = c ? 2 + mix(g->seed, (r * n + i) * RING_CHORDS + (uint64_t)c) % (RING_SPAN - 1) : 1;
        p->m[p->nm++] = (struct mop){(uint32_t)(r * n + (i + n - back % n) % n), F_READ, 0, 1};
    }
}

/* Every invocation, then every completion, ring after ring. */
static void rings(struct gen *g)
{
    uint64_t n = g->ntxns / g->rings;
    for (int complete = 0; complete < 2; complete++)
        for (uint64_t r = 0; r < g->rings; r++)
            for (uint64_t i = 0; i < n; i++) {
                struct proc p;
                ring_txn(g, &p, r, n, i);
                emit(g, &p, complete);
                g->tick++;
            }
}

/* ---- driver ---- */

static void usage(void)
{
    fputs("usage: gen_history [-m list-append|rw-register] [-n TXNS] [-p PROCS] [-k HOT_KEYS]\n"
          "                   [-f jsonl|edn] [-a] [-I] [-r RINGS] [-s SEED] > history\n", stderr);
    exit(2);
}

static void parse_args(struct gen *g, int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "m:n:p:k:f:aIr:s:")) != -1) {
        if (c == 'm' && strcmp(optarg, "list-append") && strcmp(optarg, "rw-register")) usage();
        if (c == 'f' && strcmp(optarg, "jsonl") && strcmp(optarg, "edn")) usage();
        switch (c) {
        case 'm': g->register_mode = strcmp(optarg, "rw-register") == 0; break;
        case 'n': g->ntxns = strtoull(optarg, NULL, 10); break;
        case 'p': g->nprocs = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'k': g->nhot = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'f': g->edn = strcmp(optarg, "edn") == 0; break;
        case 'a': g->anomalous = 1; break;
        case 'I': g->no_info = 1; break;
        case 'r': g->rings = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 's': g->rng = strtoull(optarg, NULL, 10); break;
        default: usage();
        }
    }
    if (optind != argc || (g->rings && (g->ntxns / g->rings < 2 || g->anomalous)) || !g->nprocs || g->nprocs > 100000 || !g->nhot || g->nhot > 100000)
        usage();
}

int main(int argc, char **argv)
{
    static struct gen g = {.ntxns = 100000, .nprocs = 10, .nhot = 8, .rng = 1};
    parse_args(&g, argc, argv);
    g.seed = g.rng;
    g.rng = g.rng * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    if (g.rings) {
        rings(&g);
        flush(&g);
        return fflush(stdout) ? 2 : 0;
    }
    g.procs = xrealloc(NULL, g.nprocs * sizeof *g.procs);
    g.hot = xrealloc(NULL, g.nhot * sizeof *g.hot);
    for (uint32_t i = 0; i < g.nprocs; i++)
        g.procs[i] = (struct proc){.id = i, .state = S_IDLE};
    for (uint32_t i = 0; i < g.nhot; i++) g.hot[i] = new_key(&g);
    while (g.invoked < g.ntxns || g.busy) {
        step(&g, &g.procs[rnd(&g, g.nprocs)]);
        g.tick++;
    }
    flush(&g);
    free(g.procs);
    free(g.hot);
    free(g.keys);
    return fflush(stdout) ? 2 : 0;
}
