/*
 * bench/run_backend.c -- the runner alone, without the check: drive a
 * backend (default sim) and print transactions per second, CPU time and
 * peak RSS. Usage: run_backend BACKEND TXNS [URL] [HISTORY]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "isolde.h"

int main(int argc, char **argv)
{
    isolde_run_opts o;
    isolde_run_stats st;
    isolde_error err = {0};
    isolde_run_opts_init(&o);
    o.backend = argc > 1 ? argv[1] : "sim";
    o.txns = argc > 2 ? atol(argv[2]) : 1000000;
    const char *url = argc > 3 && argv[3][0] ? argv[3] : NULL;
    o.urls = &url;
    o.n_urls = url != NULL;
    o.history_path = argc > 4 ? argv[4] : "/dev/null";
    if (isolde_run(&o, &st, &err) != 0) {
        fprintf(stderr, "run_backend: %s\n", err.msg);
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long n = st.ok + st.fail + st.info;
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    printf("%s: %ld txns (%ld ok) in %.2f s: %.0f txns/s, cpu %.2f s, peak RSS %ld MB\n",
           o.backend, n, st.ok, st.seconds, n / st.seconds, cpu, ru.ru_maxrss / 1024);
    return 0;
}
