/* test_phase.c -- core/phase.c, the ISOLDE_TIMING timer: a phase that ends
 * on a thread iso_parallel started is timed from its caller's clock (not
 * from 0, which printed the machine's uptime), and the peak printed is
 * never below the resident size beside it. */
#include <fcntl.h>
#include <unistd.h>
#include "testutil.h"
#include "core/parallel.h"
#include "core/phase.h"

/* What the timer printed while fn ran, stderr being a file meanwhile. */
static char *timed(void (*fn)(void))
{
    char path[] = "/tmp/isolde-test-phase-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    assert_true(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    static char text[4096];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return text;
}

/* Each printed line: its seconds below limit, its peak at least its
 * resident size; returns how many lines. */
static int check_lines(const char *text, double limit)
{
    int lines = 0;
    for (const char *l = text; (l = strstr(l, "isolde: ")); l++, lines++) {
        char name[64];
        double secs;
        long rss, peak;
        if (sscanf(l, "isolde: %63s %lf s %ld MB resident, peak %ld MB", name, &secs, &rss, &peak) != 4)
            fail_msg("not a phase line: %.80s", l);
        if (!(secs >= 0 && secs < limit)) fail_msg("%s took %f s", name, secs);
        if (peak < rss) fail_msg("%s: peak %ld MB below resident %ld MB", name, peak, rss);
    }
    return lines;
}

static void team_phase(void *arg)
{
    (void)arg;
    iso_phase("team");
}

static void start_then_team(void)
{
    iso_phase(NULL);
    iso_parallel(2, team_phase, NULL);
}

static void team_threads_start_from_the_callers_clock(void **state)
{
    (void)state;
    assert_int_equal(check_lines(timed(start_then_team), 5.0), 2);
}

static void touch_memory(void)
{
    size_t n = (size_t)64 << 20;
    char *p = malloc(n);
    assert_non_null(p);
    iso_phase(NULL);
    memset(p, 1, n);
    iso_phase("touched");
    free(p);
    iso_phase("freed");
}

static void peak_at_least_resident(void **state)
{
    (void)state;
    assert_int_equal(check_lines(timed(touch_memory), 5.0), 2);
}

int main(void)
{
    setenv("ISOLDE_TIMING", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(team_threads_start_from_the_callers_clock),
        cmocka_unit_test(peak_at_least_resident),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
