/*
 * run/run.h -- the runner behind isolde_run: concurrent clients drive a
 * database backend (drivers/) with transactions from a generator (gen/),
 * and every op they see is recorded as an Elle JSON line (record/) in the
 * history file, each completion on disk before its client goes on.
 *
 *   runner.c     clients as threads or forked processes, reconnecting
 *                until the run's deadline; the final reads
 *   nemesis.c    the nemesis thread: faults on a seeded schedule, recorded
 *   config.c     a backend's config from its option table
 *   drivers/     one file per database backend, and their table
 *
 * Rule: run/ may include drivers/, nemesis/, record/, gen/, sim/, history/ and
 * core/; nothing below it includes run/.
 */
#ifndef ISO_RUN_RUN_H
#define ISO_RUN_RUN_H

#include "run/drivers/driver.h"

/* A new config for driver d: its options' defaults, then o's name=value
 * strings; NULL with err on an unknown option or a bad value. */
void *run_config(const run_driver *d, const isolde_run_opts *o, isolde_error *err);

#endif
