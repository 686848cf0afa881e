/*
 * core/parallel.h -- running work on several threads: a team of threads
 * that share items through an atomic counter, or two jobs side by side.
 *
 * Threads run under the caller's allocation guard (core/alloc.h): when
 * memory runs out on any of them, the others finish, are joined, and the
 * caller's guard unwinds. Results are deterministic when each item writes
 * only its own output.
 */
#ifndef ISO_CORE_PARALLEL_H
#define ISO_CORE_PARALLEL_H

#include <stddef.h>

/* Run work(arg) on `threads` threads at once, the caller's among them (on
 * fewer if threads cannot start), and return when all have returned. The
 * work functions share the items among themselves, e.g. through
 * iso_next_item. */
void iso_parallel(int threads, void (*work)(void *arg), void *arg);
/* The next item of a shared counter (atomic fetch-and-add). */
size_t iso_next_item(size_t *counter);
/* The worker threads a check runs with: asked when it is positive, else
 * one per online core (isolde_check_opts.threads: 0 = one per core). */
int iso_thread_count(int asked);
/* a(arg) and b(arg), on two threads when threads > 1, else a then b. */
void iso_both(void (*a)(void *), void (*b)(void *), void *arg, int threads);

#endif
