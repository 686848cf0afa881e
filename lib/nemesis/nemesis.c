/*
 * nemesis/nemesis.c -- the table of fault kinds and the set a run asks
 * for. A new kind is a file in this folder and a row here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nemesis/nemesis.h"

static const nem_kind *const kinds[] = {&nem_command, &nem_kill, &nem_pause, &nem_partition, &nem_latency, &nem_drop};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const nem_kind *nem_find(const char *name)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(kinds[i]->name, name) == 0) return kinds[i];
    return NULL;
}

static int unknown(const char *name, size_t n, isolde_error *err)
{
    char list[256] = "";
    for (size_t i = 0; i < N_KINDS; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", kinds[i]->name);
    return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "unknown nemesis '%.*s' (the kinds: %s)", (int)n, name,
                    list);
}

int nem_parse(const isolde_run_opts *o, const nem_kind **out, int max, isolde_error *err)
{
    int n = 0;
    for (const char *s = o->faults.nemesis; s && *s;) {
        size_t len = strcspn(s, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), s);
        const nem_kind *k = len < 31 ? nem_find(name) : NULL;
        if (!k) return unknown(s, len, err);
        if (k->check && k->check(o, err) < 0) return -1;
        if (n == max) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "too many nemesis kinds");
        out[n++] = k;
        s += len + (s[len] == ',');
    }
    return n;
}

int nem_wants_proxy(const isolde_run_opts *o)
{
    for (const char *s = o->faults.nemesis; s && *s;) {
        size_t len = strcspn(s, ",");
        for (const char *net[] = {"partition", "latency", "drop"}, **k = net; k < net + 3; k++)
            if (strlen(*k) == len && strncmp(*k, s, len) == 0) return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

void nem_ctx_free(nem_ctx *n)
{
    iso_free(n->stopped);
    n->stopped = NULL;
    n->n_stopped = n->cap_stopped = 0;
}

int nem_shell(const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int nem_run_command(nem_ctx *n, const char *key, const char *cmd, iso_buf *value)
{
    int status = nem_shell(cmd);
    char *shown = iso_xstrdup(cmd);
    if (n->scrub) n->scrub(n->scrub_arg, shown);
    iso_buf_printf(value, "{\"%s\":", key);
    iso_json_string(value, shown, strlen(shown));
    iso_buf_puts(value, ",\"exit\":");
    iso_buf_int(value, status);
    iso_buf_puts(value, "}");
    iso_free(shown);
    return status == 0 ? 0 : -1;
}
