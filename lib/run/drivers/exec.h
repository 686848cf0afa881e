/*
 * run/drivers/exec.h -- the exec backend's reply parser (exec_reply.c), apart from
 * the process plumbing (exec.c) so that it can be tested alone.
 */
#ifndef ISO_RUN_EXEC_H
#define ISO_RUN_EXEC_H

#include "txn/txn.h"

/* Parse one reply line (without its newline) to request t. Returns
 * TXN_OK (t's reads filled in), TXN_FAIL or TXN_INFO (t->error set from
 * "error"), or -1 if the line is not a well-formed reply to t. *id is the
 * reply's "id" (the request's, echoed), or -1 when it has none or id is
 * NULL; an "id" that is not a non-negative integer is not well-formed. */
int exec_parse_reply(const char *line, size_t len, txn *t, int64_t *id);

#endif
