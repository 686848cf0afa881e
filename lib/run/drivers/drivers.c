/*
 * run/drivers/drivers.c -- the list of database backends `isolde run` knows
 * (besides the built-in sim). A new database is a <name>.c and a
 * line here; the runner itself does not change.
 */
#include <string.h>
#include "run/drivers/driver.h"

const run_driver *run_driver_find(const char *name)
{
    static const run_driver *const drivers[] = {
#ifdef ISO_HAVE_SQLITE
        &run_driver_sqlite,
#endif
        &run_driver_exec,
    };
    for (size_t i = 0; i < sizeof drivers / sizeof drivers[0]; i++)
        if (strcmp(drivers[i]->name, name) == 0) return drivers[i];
    return NULL;
}
