/*
 * bench/gen_lin.c -- writes a linearizable Jepsen-style EDN history for the
 * linearizability benchmarks: clients run ops back to back with random
 * think time and latency against an atomic register (one, or one per key
 * for kv); each op takes effect at a random point inside its interval.
 * About one op in CRASH (default 2000; 0 = none) crashes (:info; it took
 * effect or not, at random) and its client continues as a new process, as
 * Jepsen does. With STALE 1, one read halfway through returns nil, the
 * initial value, long after writes (never of nil) have returned: a stale
 * read, so the history is not linearizable.
 *
 *   gen_lin register|cas-register|kv N_OPS [KEYS [CLIENTS [SEED [edn|jsonl [CRASH [STALE]]]]]]
 *
 * N_OPS counts operations (an invocation and its completion); the history
 * goes to stdout as EDN op maps or JSON lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_READ, F_WRITE, F_CAS };
enum { T_OK, T_FAIL, T_INFO };

struct gop {
    int64_t call, point, ret;
    int64_t process;
    uint32_t key;
    uint8_t f, type, applied;
    int8_t v, old;
};

struct ev { int64_t time; uint32_t op; uint8_t complete; };

static uint64_t seed = 1;
static uint32_t crash_every = 2000;

static uint32_t rnd(uint32_t n)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed % n);
}

static int by_point(const void *a, const void *b)
{
    const struct gop *x = *(struct gop *const *)a, *y = *(struct gop *const *)b;
    return (x->point > y->point) - (x->point < y->point);
}

static int by_time(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    if (x->time != y->time) return (x->time > y->time) - (x->time < y->time);
    return (int)y->complete - (int)x->complete;   /* a client's next call follows its return */
}

static void make_ops(struct gop *ops, size_t n, uint32_t clients, uint32_t keys, int cas)
{
    int64_t *now = calloc(clients, sizeof *now), *proc = calloc(clients, sizeof *proc);
    for (uint32_t c = 0; c < clients; c++) proc[c] = c;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = (uint32_t)(i % clients);
        struct gop *op = &ops[i];
        int64_t lat = 1 + rnd(100);
        op->call = now[c] + rnd(20);
        op->ret = op->call + lat;
        op->point = op->call + 1 + rnd((uint32_t)lat);
        op->process = proc[c];
        op->key = rnd(keys);
        op->f = (uint8_t)rnd(cas ? 3 : 2);
        op->v = (int8_t)rnd(5);
        op->old = (int8_t)rnd(5);
        op->type = crash_every && rnd(crash_every) == 0 ? T_INFO : T_OK;
        op->applied = op->type != T_INFO || rnd(2);
        if (op->type == T_INFO) proc[c] += clients;
        now[c] = op->ret;
    }
    free(now);
    free(proc);
}

/* Run the ops in order of their points against one register per key. */
static void apply(struct gop *ops, size_t n, uint32_t keys)
{
    struct gop **order = malloc(n * sizeof *order);
    int8_t *reg = malloc(keys);
    memset(reg, -1, keys);   /* -1 = nil */
    for (size_t i = 0; i < n; i++) order[i] = &ops[i];
    qsort(order, n, sizeof *order, by_point);
    for (size_t i = 0; i < n; i++) {
        struct gop *op = order[i];
        int8_t *r = &reg[op->key];
        if (!op->applied) continue;
        if (op->f == F_READ) op->v = *r;
        else if (op->f == F_WRITE) *r = op->v;
        else if (*r == op->old) *r = op->v;
        else if (op->type == T_OK) op->type = T_FAIL;
    }
    free(order);
    free(reg);
}

/* The first ok read from op n/2 on reads nil (the write every client
 * began after has certainly returned by then). */
static void plant_stale_read(struct gop *ops, size_t n)
{
    for (size_t i = n / 2; i < n; i++)
        if (ops[i].f == F_READ && ops[i].type == T_OK) {
            ops[i].v = -1;
            return;
        }
}

static void put_val(FILE *out, int v, int json)
{
    if (v < 0) fputs(json ? "null" : "nil", out);
    else fprintf(out, "%d", v);
}

static void print_value(FILE *out, const struct gop *op, int complete, int kv, int json)
{
    const char *sep = json ? "," : " ";
    if (kv) fprintf(out, "[%u%s", op->key, sep);
    if (op->f == F_CAS) fprintf(out, "[%d%s%d]", op->old, sep, op->v);
    else put_val(out, op->f == F_READ && (!complete || op->type == T_INFO) ? -1 : op->v, json);
    if (kv) fputs("]", out);
}

static void print_op(FILE *out, const struct gop *op, int complete, int kv, size_t index,
                     int64_t t, int json)
{
    static const char *const fs[] = {"read", "write", "cas"};
    static const char *const ts[] = {"ok", "fail", "info"};
    const char *type = complete ? ts[op->type] : "invoke";
    if (json) fprintf(out, "{\"type\":\"%s\",\"f\":\"%s\",\"value\":", type, fs[op->f]);
    else fprintf(out, "{:type :%s, :f :%s, :value ", type, fs[op->f]);
    print_value(out, op, complete, kv, json);
    if (json)
        fprintf(out, ",\"process\":%lld,\"time\":%lld,\"index\":%zu}\n", (long long)op->process,
                (long long)t * 1000, index);
    else
        fprintf(out, ", :process %lld, :time %lld, :index %zu}\n", (long long)op->process,
                (long long)t * 1000, index);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_lin register|cas-register|kv N_OPS "
                        "[KEYS [CLIENTS [SEED [edn|jsonl [CRASH [STALE]]]]]]\n");
        return 2;
    }
    int kv = strcmp(argv[1], "kv") == 0, cas = kv || strcmp(argv[1], "cas-register") == 0;
    size_t n = strtoull(argv[2], NULL, 10);   /* operations: 2n lines */
    uint32_t keys = kv && argc > 3 ? (uint32_t)atoi(argv[3]) : 1;
    uint32_t clients = argc > 4 ? (uint32_t)atoi(argv[4]) : 10;
    seed = argc > 5 ? strtoull(argv[5], NULL, 10) | 1 : 88172645463325252ull;
    int json = argc > 6 && strcmp(argv[6], "jsonl") == 0;
    if (argc > 7) crash_every = (uint32_t)atoi(argv[7]);
    int stale = argc > 8 && atoi(argv[8]) == 1;
    if (!n || !keys || !clients) return 2;
    struct gop *ops = calloc(n, sizeof *ops);
    struct ev *evs = malloc(2 * n * sizeof *evs);
    make_ops(ops, n, clients, keys, cas);
    apply(ops, n, keys);
    if (stale) plant_stale_read(ops, n);
    for (size_t i = 0; i < n; i++) {
        evs[2 * i] = (struct ev){ops[i].call, (uint32_t)i, 0};
        evs[2 * i + 1] = (struct ev){ops[i].ret, (uint32_t)i, 1};
    }
    qsort(evs, 2 * n, sizeof *evs, by_time);
    for (size_t i = 0; i < 2 * n; i++)
        print_op(stdout, &ops[evs[i].op], evs[i].complete, kv, i, evs[i].time, json);
    free(ops);
    free(evs);
    return 0;
}
