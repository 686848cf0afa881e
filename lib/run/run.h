/*
 * run/run.h -- the runner behind isolde_run: concurrent clients drive a
 * database backend (drivers/) with transactions from a generator (gen/),
 * and every op they see is recorded as an Elle JSON line (record.c) in the
 * history file (hist.c), each completion on disk before its client goes on.
 *
 *   runner.c     clients as threads or forked processes, the final reads
 *   sim_loop.c   the simulated database's own loop: logical clients
 *                interleaved micro-op by micro-op on one seeded schedule
 *   record.c     op lines, written by hand
 *   hist.c       the history file: a shared mapping grown in chunks
 *   drivers/     one file per database backend, and their table
 *
 * Rule: run/ may include gen/, sim/, history/ and core/; nothing below it
 * includes run/.
 */
#ifndef ISO_RUN_RUN_H
#define ISO_RUN_RUN_H

#include "core/core.h"

/* Run a whole workload against the sim (sim_loop.c), appending the history
 * to out and, when fd >= 0, flushing it to fd in large chunks. */
int sim_run(const iso_run_opts *o, int fd, iso_buf *out, iso_run_stats *st,
            iso_error *err);

#endif
