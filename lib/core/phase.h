/*
 * core/phase.h -- the monotonic clock (and a sleep) and the phase timer:
 * with ISOLDE_TIMING set in the environment, each phase of a read or a
 * check prints its wall time, the resident memory after it and the peak
 * so far to stderr (the one place the library writes there, on request).
 */
#ifndef ISO_CORE_PHASE_H
#define ISO_CORE_PHASE_H

/* Seconds on a monotonic clock. */
double iso_now(void);
/* Sleep for ms milliseconds (less when a signal interrupts it). */
void iso_sleep_ms(long ms);
/* Print the time since the previous call on this thread, labelled name;
 * NULL only starts the clock. */
void iso_phase(const char *name);
/* This thread's clock (the time of its previous call), and a thread's
 * clock set to another's: a thread that iso_parallel starts takes its
 * caller's, so that a phase it ends is timed from where the caller was. */
double iso_phase_clock(void);
void iso_phase_set_clock(double t);

#endif
