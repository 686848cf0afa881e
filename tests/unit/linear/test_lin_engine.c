/*
 * test_lin_engine.c -- the linearizability search on hand-built op arrays:
 * the models' steps, the memo set, and a randomized cross-check against a
 * brute-force search over every ordering (and every subset of the
 * indeterminate ops) on small histories, in both directions, for every
 * model but lin-set (multi-register transactions and porcupine-kv strings
 * live in the hist's own aux words); the memory budget of one partition
 * leaving the next alone.
 */
#include "testutil.h"
#include "linear/lin.h"

#define MAXOPS 8

#define MAXAUX 256
#define N_KEYS 2  /* multi-register */

struct hist {
    struct lin_input in;
    struct lin_op ops[MAXOPS];
    int n;
    uint32_t aux[MAXAUX];  /* transactions' micro-ops, porcupine-kv text records */
    uint32_t n_aux;
};

static void hist_input(struct hist *h, isolde_workload w)
{
    uint32_t part[MAXOPS] = {0};
    memset(&h->in, 0, sizeof h->in);
    h->in.model = lin_model_for(w);
    h->in.ops = h->ops;
    h->in.n_ops = (size_t)h->n;
    h->in.n_values = 4;
    h->in.aux = h->aux;
    h->in.n_keys = w == ISOLDE_WORKLOAD_MULTI_REGISTER ? N_KEYS : 0;
    lin_input_partition(&h->in, part, 1);
}

static void hist_release(struct hist *h)
{
    iso_free(h->in.part_off);
    iso_free(h->in.part_ops);
}

static enum lin_outcome engine(struct hist *h)
{
    struct lin_search s;
    uint32_t n_seg;
    lin_search_init(&s, &h->in);
    enum lin_outcome r = lin_check_partition(&s, NULL, 0, NULL, &n_seg);
    lin_search_release(&s);
    return r;
}

/* ---- brute force ---------------------------------------------------- */

struct brute {
    const struct hist *h;
    uint32_t include;   /* ops taking part */
    uint32_t placed;
};

static int brute_from(struct brute *b, const uint32_t *st, uint32_t n)
{
    const struct hist *h = b->h;
    if ((b->placed & b->include) == b->include) return 1;
    for (int i = 0; i < h->n; i++) {
        if (!(b->include >> i & 1) || (b->placed >> i & 1)) continue;
        int blocked = 0;   /* an unplaced op returned before i was called */
        for (int j = 0; j < h->n; j++)
            if ((b->include >> j & 1) && !(b->placed >> j & 1) && h->ops[j].ret <= h->ops[i].call)
                blocked = 1;
        if (blocked) continue;
        uint32_t next[MAXOPS + 2], nn = n;
        memcpy(next, st, n * sizeof *st);
        if (!h->in.model->step(next, &nn, &h->ops[i], h->in.aux)) continue;
        b->placed |= 1u << i;
        int ok = brute_from(b, next, nn);
        b->placed &= ~(1u << i);
        if (ok) return 1;
    }
    return 0;
}

static int brute(const struct hist *h)
{
    uint32_t det = 0, indet = 0;
    for (int i = 0; i < h->n; i++)
        if (h->ops[i].flags & LIN_INDET) indet |= 1u << i;
        else det |= 1u << i;
    for (uint32_t sub = indet;; sub = (sub - 1) & indet) {
        struct brute b = {h, det | sub, 0};
        uint32_t st[MAXOPS + 2];
        uint32_t n = lin_state_init(&h->in, 0, st);
        if (brute_from(&b, st, n)) return 1;
        if (!sub) return 0;
    }
}

/* ---- random histories ----------------------------------------------- */

static uint32_t rnd(uint64_t *seed, uint32_t n)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*seed >> 33) % n);
}

/* Intervals from 3 processes interleaving; ~1 in 5 ops indeterminate. */
static void gen_intervals(struct hist *h, uint64_t *seed, int n)
{
    int open[3] = {-1, -1, -1}, made = 0;
    uint64_t t = 0;
    h->n = 0;
    while (made < n || open[0] >= 0 || open[1] >= 0 || open[2] >= 0) {
        int p = (int)rnd(seed, 3);
        if (open[p] >= 0) {
            struct lin_op *op = &h->ops[open[p]];
            if (rnd(seed, 5) == 0) { op->flags |= LIN_INDET; op->ret = LIN_NEVER; }
            else op->ret = t;
            open[p] = -1;
        } else if (made < n) {
            h->ops[made] = (struct lin_op){.call = t, .inv = (uint32_t)made, .cmp = ISO_NONE};
            open[p] = made++;
        } else {
            continue;
        }
        t++;
    }
    h->n = n;
}

static const uint8_t kinds_reg[] = {LIN_READ, LIN_WRITE, LIN_CAS};
static const uint8_t kinds_mutex[] = {LIN_ACQUIRE, LIN_RELEASE};
static const uint8_t kinds_queue[] = {LIN_ENQUEUE, LIN_DEQUEUE};

/* Random kinds and values; then, for half the cases, replay a sequential
 * execution at random points so most of them are linearizable. */
static void gen_ops(struct hist *h, uint64_t *seed, isolde_workload w)
{
    const uint8_t *kinds = w == ISOLDE_WORKLOAD_MUTEX ? kinds_mutex
                         : w == ISOLDE_WORKLOAD_FIFO_QUEUE ? kinds_queue : kinds_reg;
    uint32_t nk = w == ISOLDE_WORKLOAD_CAS_REGISTER ? 3 : 2;
    for (int i = 0; i < h->n; i++) {
        struct lin_op *op = &h->ops[i];
        op->kind = kinds[rnd(seed, nk)];
        op->a = rnd(seed, 3);
        op->b = rnd(seed, 3);
        if (op->kind == LIN_CAS && rnd(seed, 4) == 0) op->flags |= LIN_CAS_FALSE;
        if (op->kind == LIN_DEQUEUE && (op->flags & LIN_INDET) && rnd(seed, 2)) op->a = LIN_ANY;
    }
}

/* order[0..h->n): the ops sorted by a random point inside each one's
 * interval (a never-returning op's ends at 64): an order a sequential run
 * could take. */
static void random_points_order(const struct hist *h, uint64_t *seed, int *order)
{
    uint64_t point[MAXOPS];
    for (int i = 0; i < h->n; i++) {
        uint64_t hi = h->ops[i].ret == LIN_NEVER ? 64 : h->ops[i].ret;
        point[i] = h->ops[i].call * 1000 + 1 + rnd(seed, (uint32_t)((hi - h->ops[i].call) * 1000 - 1));
        order[i] = i;
    }
    for (int i = 1; i < h->n; i++)
        for (int j = i; j > 0 && point[order[j]] < point[order[j - 1]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
}

/* Rewrite read / dequeue results as a sequential run in order of random
 * points inside the intervals would see them (other ops unchanged). */
static void make_plausible(struct hist *h, uint64_t *seed)
{
    int order[MAXOPS];
    random_points_order(h, seed, order);
    uint32_t st[MAXOPS + 2], n = lin_state_init(&h->in, 0, st);
    for (int k = 0; k < h->n; k++) {
        struct lin_op *op = &h->ops[order[k]];
        if (op->kind == LIN_READ) op->a = st[0];
        if (op->kind == LIN_DEQUEUE && n && op->a != LIN_ANY) op->a = st[0];
        uint32_t save[MAXOPS + 2], sn = n;
        memcpy(save, st, sizeof save);
        if (!h->in.model->step(st, &n, op, NULL)) { memcpy(st, save, sizeof save); n = sn; }
    }
}

/* ---- multi-register and porcupine-kv ops --------------------------- */

/* A random transaction of one or two micro-ops over N_KEYS keys. */
static void gen_txn(struct hist *h, struct lin_op *op, uint64_t *seed)
{
    uint32_t n = 1 + rnd(seed, 2), pure = 1;
    op->kind = LIN_TXN;
    op->a = h->n_aux;
    op->b = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = rnd(seed, 2);
        h->aux[h->n_aux++] = rnd(seed, N_KEYS) << 1 | w;
        h->aux[h->n_aux++] = !w && (op->flags & LIN_INDET) ? LIN_ANY : rnd(seed, 3);
        pure &= !w;
    }
    if (pure) op->flags |= LIN_PURE;
}

/* A text record of the bytes p[0..n) in the hist's aux; its offset. */
static uint32_t text_rec(struct hist *h, const char *p, uint32_t n)
{
    uint32_t off = h->n_aux, words = (n + 3) / 4;
    h->aux[off] = n;
    memset(h->aux + off + 1, 0, (words + 1) * sizeof *h->aux);
    memcpy(h->aux + off + 1, p, n);
    h->n_aux += 1 + words;
    return off;
}

/* Put / append one of "a" "b" "c" (value ids 1..3), or get a string of
 * up to three of them. */
static void gen_text_op(struct hist *h, struct lin_op *op, uint64_t *seed)
{
    static const uint8_t kinds[] = {LIN_READ, LIN_WRITE, LIN_APPEND, LIN_APPEND};
    char text[3];
    uint32_t n = 1;
    op->kind = kinds[rnd(seed, 4)];
    if (op->kind == LIN_READ) {
        n = rnd(seed, 4);
        for (uint32_t i = 0; i < n; i++) text[i] = (char)('a' + rnd(seed, 3));
        op->a = 0; /* any id but LIN_ANY: the record says what it reads */
    } else {
        text[0] = (char)('a' + rnd(seed, 3));
        op->a = (uint32_t)(text[0] - 'a' + 1);
    }
    op->b = text_rec(h, text, n);
}

/* Rewrite multi-register reads and porcupine-kv gets as a sequential run
 * in order of random points inside the intervals would see them. */
static void make_plausible_aux(struct hist *h, uint64_t *seed)
{
    int order[MAXOPS];
    random_points_order(h, seed, order);
    uint32_t st[MAXOPS + 2], n = lin_state_init(&h->in, 0, st);
    for (int k = 0; k < h->n; k++) {
        struct lin_op *op = &h->ops[order[k]];
        uint32_t *m = h->aux + op->a;
        for (uint32_t i = 0; op->kind == LIN_TXN && i < op->b; i++, m += 2) {
            if (m[0] & LIN_MOP_WRITE) st[m[0] >> 1] = m[1]; /* the txn's own writes count */
            else if (m[1] != LIN_ANY) m[1] = st[m[0] >> 1];
        }
        if (op->kind == LIN_TXN) continue;
        if (op->kind == LIN_READ) {
            char text[MAXOPS + 1];
            uint32_t len = 0;
            for (uint32_t i = 1; i < n; i++) text[len++] = (char)h->aux[st[i] + 1];
            op->b = text_rec(h, text, len);
        }
        h->in.model->step(st, &n, op, h->aux);
    }
}

static void gen_ops_aux(struct hist *h, uint64_t *seed, isolde_workload w)
{
    h->n_aux = 0;
    for (int i = 0; i < h->n; i++) {
        if (w == ISOLDE_WORKLOAD_MULTI_REGISTER) gen_txn(h, &h->ops[i], seed);
        else gen_text_op(h, &h->ops[i], seed);
    }
}

/* Four ops in five writes: segments of writes alone, which lin_writes.c
 * answers without a search, then reads of what they left. */
static void mostly_writes(struct hist *h, uint64_t *seed)
{
    for (int i = 0; i < h->n; i++)
        if (rnd(seed, 5)) {
            h->ops[i].kind = LIN_WRITE;
            h->ops[i].flags &= (uint8_t)~LIN_CAS_FALSE;
        }
}

static void crosscheck(isolde_workload w, int cases, int writes)
{
    uint64_t seed = 42 + (uint64_t)w;
    int valid = 0, invalid = 0;
    for (int c = 0; c < cases; c++) {
        struct hist h;
        int aux = w == ISOLDE_WORKLOAD_MULTI_REGISTER || w == ISOLDE_WORKLOAD_PORCUPINE_KV;
        gen_intervals(&h, &seed, 1 + (int)rnd(&seed, MAXOPS));
        if (aux) gen_ops_aux(&h, &seed, w);
        else gen_ops(&h, &seed, w);
        if (writes) mostly_writes(&h, &seed);
        hist_input(&h, w);
        if (c % 2) aux ? make_plausible_aux(&h, &seed) : make_plausible(&h, &seed);
        int want = brute(&h);
        enum lin_outcome got = engine(&h);
        if (got != (want ? LIN_OK : LIN_FAIL))
            fail_msg("case %d (%s): brute force says %s, search outcome %d", c,
                     h.in.model->name, want ? "linearizable" : "not", (int)got);
        want ? valid++ : invalid++;
        hist_release(&h);
    }
    /* both verdicts must be exercised (few reads: fewer contradictions) */
    assert_true(valid > cases / 10);
    assert_true(invalid > cases / (writes ? 50 : 10));
}

static void test_cross_cas(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_CAS_REGISTER, 20000, 0); }
static void test_cross_register(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_REGISTER, 10000, 0); }
static void test_cross_mutex(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_MUTEX, 10000, 0); }
static void test_cross_queue(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_FIFO_QUEUE, 10000, 0); }
static void test_cross_multi(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_MULTI_REGISTER, 10000, 0); }
static void test_cross_register_writes(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_REGISTER, 20000, 1); }
static void test_cross_cas_writes(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_CAS_REGISTER, 20000, 1); }
static void test_cross_text(void **st) { (void)st; crosscheck(ISOLDE_WORKLOAD_PORCUPINE_KV, 10000, 0); }

/* Every op in turn made indeterminate, in plausible histories. */
static void test_indet_every_position(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (int c = 0; c < 2000; c++) {
        struct hist base;
        gen_intervals(&base, &seed, 2 + (int)rnd(&seed, MAXOPS - 1));
        gen_ops(&base, &seed, ISOLDE_WORKLOAD_CAS_REGISTER);
        for (int i = -1; i < base.n; i++) {
            struct hist h = base;
            if (i >= 0) { h.ops[i].flags |= LIN_INDET; h.ops[i].ret = LIN_NEVER; }
            hist_input(&h, ISOLDE_WORKLOAD_CAS_REGISTER);
            int want = brute(&h);
            if (engine(&h) != (want ? LIN_OK : LIN_FAIL))
                fail_msg("case %d, indeterminate op %d: brute force says %d", c, i, want);
            hist_release(&h);
        }
    }
}

/* ---- hand-written cases --------------------------------------------- */

static struct lin_op mk(uint64_t call, uint64_t ret, uint8_t kind, uint32_t a, uint32_t b)
{
    return (struct lin_op){.call = call, .ret = ret, .kind = kind, .a = a, .b = b,
                           .cmp = ISO_NONE, .flags = ret == LIN_NEVER ? LIN_INDET : 0};
}

static void test_register_basics(void **state)
{
    (void)state;
    struct hist h = {.n = 3};
    /* write 1 [0,3], read 1 [1,2] : fine; then read 0 (nil) after: not */
    h.ops[0] = mk(0, 3, LIN_WRITE, 1, 0);
    h.ops[1] = mk(1, 2, LIN_READ, 1, 0);
    h.ops[2] = mk(4, 5, LIN_READ, LIN_NIL, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
    h.ops[2] = mk(4, 5, LIN_READ, 1, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
    /* a read of nil before any write is legal: nil is the initial value */
    h.n = 1;
    h.ops[0] = mk(0, 1, LIN_READ, LIN_NIL, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
}

static void test_indeterminate_write(void **state)
{
    (void)state;
    struct hist h = {.n = 3};
    /* an indeterminate write of 2 may take effect late, after read 1 */
    h.ops[0] = mk(0, LIN_NEVER, LIN_WRITE, 2, 0);
    h.ops[1] = mk(1, 2, LIN_WRITE, 1, 0);
    h.ops[2] = mk(3, 4, LIN_READ, 1, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
    h.ops[2] = mk(3, 4, LIN_READ, 2, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
    h.ops[2] = mk(3, 4, LIN_READ, 3, 0);
    hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
}

static void test_cas_false(void **state)
{
    (void)state;
    struct hist h = {.n = 2};
    h.ops[0] = mk(0, 1, LIN_WRITE, 1, 0);
    h.ops[1] = mk(2, 3, LIN_CAS, 1, 2);
    h.ops[1].flags |= LIN_CAS_FALSE;     /* cas 1->2 returned false: yet it held 1 */
    hist_input(&h, ISOLDE_WORKLOAD_CAS_REGISTER);
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
    h.ops[1].a = 2;                       /* cas 2->... false while 1: fine */
    hist_input(&h, ISOLDE_WORKLOAD_CAS_REGISTER);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
}

static void test_mutex_and_queue(void **state)
{
    (void)state;
    struct hist h = {.n = 2};
    h.ops[0] = mk(0, 1, LIN_ACQUIRE, 0, 0);
    h.ops[1] = mk(2, 3, LIN_ACQUIRE, 0, 0);
    hist_input(&h, ISOLDE_WORKLOAD_MUTEX);
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
    h.ops[1] = mk(2, 3, LIN_RELEASE, 0, 0);
    hist_input(&h, ISOLDE_WORKLOAD_MUTEX);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
    h.n = 3;   /* enqueue 1, enqueue 2 (sequential), dequeue must give 1 */
    h.ops[0] = mk(0, 1, LIN_ENQUEUE, 1, 0);
    h.ops[1] = mk(2, 3, LIN_ENQUEUE, 2, 0);
    h.ops[2] = mk(4, 5, LIN_DEQUEUE, 2, 0);
    hist_input(&h, ISOLDE_WORKLOAD_FIFO_QUEUE);
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
    h.ops[2].a = 1;
    hist_input(&h, ISOLDE_WORKLOAD_FIFO_QUEUE);
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
}

static void test_set_model(void **state)
{
    (void)state;
    struct hist h = {.n = 3};
    uint32_t aux[2] = {1u << 1 | 1u << 2, 1u << 1};  /* #{1 2}, #{1} */
    h.ops[0] = mk(0, 1, LIN_ADD, 1, 0);
    h.ops[1] = mk(2, 5, LIN_ADD, 2, 0);
    h.ops[2] = mk(3, 4, LIN_READ_SET, 1, 1);  /* reads #{1}: legal, add 2 is concurrent */
    hist_input(&h, ISOLDE_WORKLOAD_LIN_SET);
    h.in.aux = aux;
    h.in.n_values = 3;
    assert_int_equal(engine(&h), LIN_OK);
    hist_release(&h);
    h.ops[2] = mk(6, 7, LIN_READ_SET, 1, 1);  /* after both adds: must be #{1 2} */
    hist_input(&h, ISOLDE_WORKLOAD_LIN_SET);
    h.in.aux = aux;
    h.in.n_values = 3;
    assert_int_equal(engine(&h), LIN_FAIL);
    hist_release(&h);
}

static void test_memo_set(void **state)
{
    (void)state;
    struct lin_set s = {0};
    uint32_t w[3];
    for (uint32_t i = 0; i < 5000; i++) {
        w[0] = i; w[1] = i * 7; w[2] = 1;
        assert_int_equal(lin_set_add(&s, w, 1 + i % 3), 1);
    }
    for (uint32_t i = 0; i < 5000; i++) {
        w[0] = i; w[1] = i * 7; w[2] = 1;
        assert_int_equal(lin_set_add(&s, w, 1 + i % 3), 0);
        assert_int_equal(lin_set_add(&s, w, 1 + (i + 1) % 3), 1);
        assert_int_equal(lin_set_add(&s, w, 1 + (i + 1) % 3), 0);
    }
    assert_int_equal(s.n, 10000);
    lin_set_clear(&s);
    assert_int_equal(lin_set_add(&s, w, 2), 1);
    lin_set_release(&s);
}

/* Quiescent cuts: concurrent writes of 1, 2, 3, then (after a cut) reads
 * of 2 and 3 in turn, or of 1 then 2 -- whichever end state of the writes
 * a greedy pass carries on, the search must find the one that works, two
 * segments back when a cut separates the reads; a read of 4 is final. */
static void test_cuts_carry_every_state(void **state)
{
    (void)state;
    static const uint32_t reads[][2] = {{2, 3}, {1, 2}, {3, 1}, {4, 1}, {2, 2}};
    for (size_t c = 0; c < sizeof reads / sizeof reads[0]; c++) {
        struct hist h = {.n = 6};
        h.ops[0] = mk(0, 10, LIN_WRITE, 1, 0);
        h.ops[1] = mk(1, 11, LIN_WRITE, 2, 0);
        h.ops[2] = mk(2, 12, LIN_WRITE, 3, 0);
        h.ops[3] = mk(13, 14, LIN_WRITE, 0, 0);        /* a lone op: a cut each side */
        h.ops[3].kind = LIN_READ;
        h.ops[3].a = reads[c][0];
        h.ops[4] = mk(15, 17, LIN_READ, reads[c][1], 0);
        h.ops[5] = mk(16, 18, LIN_READ, reads[c][1], 0);
        hist_input(&h, ISOLDE_WORKLOAD_REGISTER);
        int want = brute(&h);
        assert_int_equal(want, reads[c][0] != 4 && reads[c][0] == reads[c][1] ? 1 : 0);
        assert_int_equal(engine(&h), want ? LIN_OK : LIN_FAIL);
        hist_release(&h);
    }
}

/* A long, no-quiescence history searches quickly (the memo at work):
 * 4 writers of the same value overlap in a chain. */
static void test_long_chain(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct lin_input in = {0};
    uint32_t *part = calloc(N, sizeof *part);
    in.model = lin_model_for(ISOLDE_WORKLOAD_CAS_REGISTER);
    in.ops = calloc(N, sizeof *in.ops);
    in.n_ops = N;
    in.n_values = 3;
    for (uint32_t i = 0; i < N; i++)   /* op i spans [2i, 2i + 5]: always 3 in flight */
        in.ops[i] = mk(2 * (uint64_t)i, 2 * (uint64_t)i + 5, i % 2 ? LIN_READ : LIN_WRITE, 1, 0);
    lin_input_partition(&in, part, 1);
    struct lin_search s;
    uint32_t n_seg;
    lin_search_init(&s, &in);
    assert_int_equal(lin_check_partition(&s, NULL, 0, NULL, &n_seg), LIN_OK);
    assert_int_equal(n_seg, 1);
    lin_search_release(&s);
    free(in.ops); iso_free(in.part_off); iso_free(in.part_ops); free(part);
}

/* A partition that runs out of the memory budget leaves the next one on
 * the same search alone: the budget counts what the memo holds, not the
 * capacity the big one left (before, every later partition was unknown). */
static void test_budget_per_partition(void **state)
{
    (void)state;
    enum { W = 14, C = 6000, N = W + 2 + C };
    struct lin_input in = {0};
    uint32_t *part = calloc(N, sizeof *part);
    struct lin_op *ops = calloc(N, sizeof *ops);
    for (uint32_t i = 0; i < W; i++)     /* part 0: W concurrent writes, then reads of two */
        ops[i] = mk(i, W + i, LIN_WRITE, 1 + i % 3, 0);
    ops[0].kind = LIN_READ;              /* and a read among them: a search, not lin_writes.c */
    ops[W] = mk(2 * W, 2 * W + 1, LIN_READ, 1, 0);
    ops[W + 1] = mk(2 * W + 2, 2 * W + 3, LIN_READ, 2, 0);
    for (uint32_t i = 0; i < C; i++) {   /* part 1: a long chain, thousands of steps */
        ops[W + 2 + i] = mk(2 * (uint64_t)i, 2 * (uint64_t)i + 5, i % 2 ? LIN_READ : LIN_WRITE, 1, 0);
        part[W + 2 + i] = 1;
    }
    in.model = lin_model_for(ISOLDE_WORKLOAD_REGISTER);
    in.ops = ops;
    in.n_ops = N;
    in.n_values = 4;
    lin_input_partition(&in, part, 2);
    struct lin_search s;
    uint32_t n_seg;
    lin_search_init(&s, &in);
    s.mem_limit = 256 << 10;
    assert_int_equal(lin_check_partition(&s, NULL, 0, NULL, &n_seg), LIN_NOMEM);
    assert_int_equal(lin_check_partition(&s, NULL, 1, NULL, &n_seg), LIN_OK);
    lin_search_release(&s);
    iso_free(in.part_off);
    iso_free(in.part_ops);
    free(ops);
    free(part);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_set),
        cmocka_unit_test(test_register_basics),
        cmocka_unit_test(test_indeterminate_write),
        cmocka_unit_test(test_cas_false),
        cmocka_unit_test(test_mutex_and_queue),
        cmocka_unit_test(test_set_model),
        cmocka_unit_test(test_long_chain),
        cmocka_unit_test(test_cuts_carry_every_state),
        cmocka_unit_test(test_budget_per_partition),
        cmocka_unit_test(test_cross_cas),
        cmocka_unit_test(test_cross_register),
        cmocka_unit_test(test_cross_register_writes),
        cmocka_unit_test(test_cross_cas_writes),
        cmocka_unit_test(test_cross_mutex),
        cmocka_unit_test(test_cross_queue),
        cmocka_unit_test(test_cross_multi),
        cmocka_unit_test(test_cross_text),
        cmocka_unit_test(test_indet_every_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
