/*
 * linear/lin_check.c -- iso_lin_check: build the ops, check the partitions
 * (P-compositionality: a history is linearizable iff each key's
 * sub-history is), in parallel threads when there are several, and fold
 * the outcomes into a verdict: any non-linearizable partition makes the
 * history invalid; otherwise an exhausted budget makes it unknown.
 */
#include <stdlib.h>
#include <string.h>
#include "linear/lin.h"

#define TOTAL_MEM_LIMIT ((size_t)3 << 29) /* 1.5 GiB of memo, split over threads */
#define MIN_OPS_PER_THREAD 4096

struct part_result {
    enum lin_outcome out;
    uint32_t n_segments;
    struct lin_witness w;
};

struct job {
    const struct lin_input *in;
    const isolde_history *h;
    double deadline;
    size_t mem_limit;
    size_t next;
    struct part_result *res;
};

static void worker(void *arg)
{
    struct job *job = arg;
    struct lin_search s;
    lin_search_init(&s, job->in);
    s.deadline = job->deadline;
    s.mem_limit = job->mem_limit;
    for (;;) {
        size_t p = iso_next_item(&job->next);
        if (p >= job->in->n_parts) break;
        struct part_result *r = &job->res[p];
        r->out = lin_check_partition(&s, job->h, p, &r->w, &r->n_segments);
    }
    lin_search_release(&s);
}

static unsigned thread_count(const struct lin_input *in, const isolde_check_opts *o)
{
    size_t by_size = in->n_ops / MIN_OPS_PER_THREAD + 1;
    size_t n = (size_t)iso_thread_count(o->threads);
    if (n > by_size) n = by_size;
    if (n > in->n_parts) n = in->n_parts;
    return n < 1 ? 1 : (unsigned)n;
}

static void fold(struct lin_report *r, struct part_result *res, uint32_t n_parts)
{
    for (uint32_t p = 0; p < n_parts; p++) {
        r->n_segments += res[p].n_segments;
        if (res[p].out == LIN_FAIL) {
            r->w[r->n_w++] = res[p].w;
        } else if (res[p].out != LIN_OK) {
            r->n_unknown++;
            r->reason = res[p].out == LIN_TIMEOUT ? "timeout" : "memory budget exhausted";
        }
    }
    r->n_invalid = r->n_w;
    r->validity = r->n_invalid ? ISOLDE_INVALID : r->n_unknown ? ISOLDE_UNKNOWN : ISOLDE_VALID;
}

void lin_check_input(const struct lin_input *in, const isolde_history *h,
                     const isolde_check_opts *o, struct lin_report *r)
{
    double t0 = iso_now();
    unsigned n_threads = thread_count(in, o);
    struct job job = {.in = in, .h = h, .mem_limit = TOTAL_MEM_LIMIT / n_threads};
    job.deadline = o->timeout_ms > 0 ? t0 + (double)o->timeout_ms / 1000.0 : 0;
    job.next = 0;
    job.res = iso_xcalloc((size_t)in->n_parts + 1, sizeof *job.res);
    iso_parallel((int)n_threads, worker, &job);
    r->model = in->model->name;
    r->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 0;
    r->naming = h ? lin_naming_of(h) : LIN_BY_INDEX;
    r->n_ops = in->part_off[in->n_parts];
    r->n_parts = in->n_parts;
    r->w = iso_xcalloc((size_t)in->n_parts + 1, sizeof *r->w);
    fold(r, job.res, in->n_parts);
    iso_free(job.res);
    r->seconds = iso_now() - t0;
}

int iso_lin_check(const isolde_history *h, const isolde_check_opts *o, const iso_checker_opts *co,
                  isolde_workload w, isolde_result **r, isolde_error *err)
{
    struct lin_input in;
    if (lin_input_build(&in, h, co, w, err) < 0) return -1;
    struct lin_report *l = iso_xcalloc(1, sizeof *l);
    lin_check_input(&in, h, o, l);
    lin_input_release(&in);
    int bad = l->validity == ISOLDE_INVALID;
    *r = iso_result_new(&lin_kind, l, l->validity, bad ? "nonlinearizable" : NULL, l->n_invalid);
    if (bad) { /* the one model such a result rules out, as Elle's :not would name it */
        (*r)->not_ = iso_xmalloc(sizeof *(*r)->not_);
        (*r)->not_[(*r)->n_not++] = "linearizable";
    }
    return 0;
}

void lin_report_free(void *payload)
{
    struct lin_report *l = payload;
    if (!l) return;
    for (size_t i = 0; i < l->n_w; i++) lin_witness_release(&l->w[i]);
    iso_free(l->w);
    iso_free(l);
}
