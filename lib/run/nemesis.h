/*
 * run/nemesis.h -- a run's nemesis thread (nemesis.c): the schedule of
 * faults beside the clients, and their recording through the runner.
 */
#ifndef ISO_RUN_NEMESIS_H
#define ISO_RUN_NEMESIS_H

#include "core/core.h"

/* Records one nemesis op (:info, process "nemesis"): its :f, its value as
 * JSON text, and whether it is the completion of the one before. */
typedef void (*run_nemesis_record)(void *arg, const char *f, const char *value_json, int completion);

typedef struct run_nemesis run_nemesis;

/* Start the nemesis o asks for (none: *out NULL, 0); -1 with err on an
 * unknown kind or a missing option. */
struct nem_proxy;
/* proxy: the run's fault proxy, for the kinds that use it (may be NULL). */
int run_nemesis_start(run_nemesis **out, const isolde_run_opts *o, struct nem_proxy *proxy,
                      run_nemesis_record record, void *arg, isolde_error *err);
/* End the schedule, heal a fault that is on, join and free; the faults
 * injected go into st (faults, kind_faults, first_fault_due,
 * nemesis_seconds), if given. *nomem (if given): the thread ran out of
 * memory. */
void run_nemesis_stop(run_nemesis *n, int *nomem, isolde_run_stats *st);

#endif
