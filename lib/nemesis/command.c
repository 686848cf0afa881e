/*
 * nemesis/command.c -- the command nemesis: --fault CMD is the fault and
 * --heal CMD the heal, each run with sh -c and waited for; the history
 * records the command (the run's secrets scrubbed) and how it exited.
 */
#include <string.h>
#include "nemesis/nemesis.h"

static int check(const isolde_run_opts *o, isolde_error *err)
{
    if (!o->faults.fault_cmd || !*o->faults.fault_cmd)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--nemesis command needs --fault CMD (and --heal CMD)");
    return 0;
}

/* {"command":CMD,"exit":N}; -1 when it did not exit 0. */
static int run(nem_ctx *n, const char *cmd, iso_buf *value)
{
    if (!cmd || !*cmd) {
        iso_buf_puts(value, "null");
        return 0;
    }
    return nem_run_command(n, "command", cmd, value);
}

static int start(nem_ctx *n, iso_buf *value) { return run(n, n->o->faults.fault_cmd, value); }
static int stop(nem_ctx *n, iso_buf *value) { return run(n, n->o->faults.heal_cmd, value); }

const nem_kind nem_command = {"command", "start-fault", "stop-fault", check, start, stop};
