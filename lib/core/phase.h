/*
 * core/phase.h -- the monotonic clock and the phase timer: with
 * ISOLDE_TIMING set in the environment, each phase of a read or a check
 * prints its wall time, the resident memory after it and the peak so far
 * to stderr (the one place the library writes there, on request).
 */
#ifndef ISO_CORE_PHASE_H
#define ISO_CORE_PHASE_H

/* Seconds on a monotonic clock. */
double iso_now(void);
/* Print the time since the previous call on this thread, labelled name;
 * NULL only starts the clock. */
void iso_phase(const char *name);

#endif
