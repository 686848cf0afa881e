/*
 * core/alloc.h -- every allocation of the library, and what happens when
 * memory runs out.
 *
 * iso_xmalloc and friends never return NULL inside a guard: a failed
 * allocation calls the out-of-memory handler (isolde_set_oom_handler), and
 * when that does not ask for a retry, unwinds to the innermost guard on
 * the thread (iso_guarded), which frees every block allocated under it
 * and returns -1 with the error ISOLDE_ERR_NOMEM. Every public entry point
 * runs its work under a guard, and so does every thread the library
 * starts, so a check that runs out of memory is an error, never a crash.
 *
 * Blocks carry a small header linking them into their guard's pool; free
 * them with iso_free, never with iso_free(). A block outlives its guard when
 * the guard ends well (the result a call returns is made of such blocks).
 * Outside any guard an allocation that fails returns NULL and is counted
 * (iso_alloc_unguarded_failures): the library never allocates there.
 *
 * Invariant: no library lock is held across an allocation that may unwind.
 */
#ifndef ISO_CORE_ALLOC_H
#define ISO_CORE_ALLOC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "isolde.h"

/* "No such item": the sentinel of every 32-bit id. */
#define ISO_NONE UINT32_MAX

void *iso_xmalloc(size_t n);
void *iso_xcalloc(size_t n, size_t size);
void *iso_xrealloc(void *p, size_t n);
/* Frees a block of iso_xmalloc and friends; NULL is a no-op. */
void iso_free(void *p);
char *iso_xstrdup(const char *s);
char *iso_xstrndup(const char *s, size_t n);

/* Grow *arr (element size sz) so that index need-1 fits; doubles capacity.
 * ISO_GROW calls it only when the array is full. */
void iso_grow(void **arr, size_t *cap, size_t need, size_t sz);
#define ISO_GROW(arr, cap, need) \
    do { if ((need) > (cap)) iso_grow((void **)&(arr), &(cap), (need), sizeof *(arr)); } while (0)
/* Append one element to a (ptr, n, cap) triple. */
#define ISO_PUSH(arr, n, cap, x) \
    do { ISO_GROW(arr, cap, (n) + 1); (arr)[(n)++] = (x); } while (0)

/* Move block p into the pool that holds block owner, so that it lives as
 * long as owner's memory, whatever happens to the call that allocated it:
 * for memory a call adds to an object that existed before the call (an
 * append to a history, a proof rendered into a result). NULL p: no-op. */
void iso_adopt(void *p, const void *owner);
/* ISO_GROW for an array of an object made before the call: the grown
 * array stays with owner's memory (iso_adopt). */
void iso_grow_for(void **arr, size_t *cap, size_t need, size_t sz, const void *owner);

/* Give the whole pages inside [p, p + n) back to the system (their
 * contents read as zeros afterwards): memory of a block, or of a private
 * file mapping, that is not read again before it is written or freed. */
void iso_drop_pages(void *p, size_t n);

/* As iso_grow, but when the memory cannot be had returns -1 and leaves
 * *arr as it was, without the handler or unwinding: for reservations that
 * are only a shortcut. */
int iso_try_grow(void **arr, size_t *cap, size_t need, size_t sz);

/* Run fn(arg) under a guard. Returns what fn returns; when memory runs out
 * inside, frees all that was allocated under the guard, fills err (code
 * ISOLDE_ERR_NOMEM, the size asked for in the message) and returns -1.
 * Inside another guard it simply calls fn: the outer guard answers. */
int iso_guarded(int (*fn)(void *arg), void *arg, isolde_error *err);

/* The guard of the calling thread (NULL if none), to hand to a thread the
 * library starts; that thread runs under it with iso_guard_enter. */
struct iso_guard;
struct iso_guard *iso_guard_current(void);
/* Run fn(arg) on this (new) thread under g's pool. Returns 0, or -1 when
 * memory ran out inside (everything fn allocated stays in g's pool, to be
 * freed when g unwinds: the caller re-raises with iso_guard_raise). */
int iso_guard_enter(struct iso_guard *g, void (*fn)(void *arg), void *arg);
/* Unwind the calling thread's guard as if memory had run out (after a
 * thread of it did). Does not return when a guard is active. */
void iso_guard_raise(void);
/* From now on, the calling thread's guard (and the workers it starts)
 * unwinds at the next iso_cancel_point once *flag is set (by any thread):
 * the call fails with ISOLDE_ERR_CANCELLED, all it allocated freed. flag
 * must outlive the guard; outside any guard it does nothing. */
void iso_guard_cancel_on(const atomic_int *flag);
/* Where a long computation may stop when cancelled (core/phase.c's
 * iso_phase is one: every phase boundary). */
void iso_cancel_point(void);
/* While set, fn(arg) runs when the calling thread's guard unwinds (memory
 * ran out, or a bus fault): for what is not memory but is held across
 * allocations, such as an open file. One at a time; fn NULL clears it.
 * Call it on the guard's own thread, not a worker's; outside any guard
 * it does nothing. */
void iso_guard_on_unwind(void (*fn)(void *arg), void *arg);
/* While on, a bus fault (SIGBUS) on this thread or a worker it starts
 * unwinds the guard as running out of memory does, and the call fails
 * with ISOLDE_ERR_IO: for reading a mapped file, whose pages vanish if
 * another process truncates it. The library's SIGBUS handler is installed
 * (once) only where the program has none of its own; -1 when it is not
 * there (or no guard runs): then map nothing that may shrink. */
int iso_guard_catch_bus(int on);

#ifdef ISO_TESTING
/* Test hooks, compiled in only with -DISO_TESTING (what the unit tests,
 * the test tools and the fuzz targets link; nothing shipped has them):
 * fail every allocation after the next n (0: none fail); fail every
 * allocation of more than n bytes (0: none), as a limit on the address
 * space would; failed allocations outside any guard so far. */
void iso_alloc_fail_after(unsigned long n);
void iso_alloc_fail_above(size_t n);
unsigned long iso_alloc_unguarded_failures(void);
#endif

#endif
