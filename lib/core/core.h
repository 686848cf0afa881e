/*
 * core/core.h -- the core of libisolde: what every other folder builds on,
 * and nothing here knows about histories, graphs or checks.
 *
 *   alloc.h     allocation with guards: running out of memory unwinds to
 *               the public call that is running, which reports it
 *   buf.h       growable byte strings, decimal integers written in place
 *   error.h     filling an isolde_error (kind, file:line:col, message)
 *   parallel.h  thread teams and two jobs side by side
 *   phase.h     the monotonic clock and the ISOLDE_TIMING phase timer
 *   value.h     the values of a history: tagged 64-bit words in a store
 *   keys.h      dense ids for values by structural equality
 *   names.h     the closest name to a misspelt one ("did you mean ...?")
 *   rng.h       the seeded random source of the runner (splitmix64)
 *   sort.h      the comparators of qsort and bsearch over plain integers
 *   options.h   "name=value" options read against a table (a backend's,
 *               the checkers')
 *   version.c   the library's version and the optional libraries it was
 *               built with (public calls alone: no header of its own)
 *
 * Rule: core/ includes only the public header and the C library.
 */
#ifndef ISO_CORE_H
#define ISO_CORE_H

#include "core/alloc.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/phase.h"

#endif
