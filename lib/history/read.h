/*
 * history/read.h -- the readers of history formats, one file each
 * (read_*.c), as the format table in read.c calls them; and format
 * detection (detect.c).
 */
#ifndef ISO_HISTORY_READ_H
#define ISO_HISTORY_READ_H

#include "history/history.h"

/* Readers: each fills h from buf[0..len) or returns -1 with err set. */
int iso_read_edn(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_json(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_onelite(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_jepsen_log(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_jepsen_txt(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_plume(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_dbcop(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_awdit(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_cobra(isolde_history *h, const char *buf, size_t len, isolde_error *err);
int iso_read_chronos(isolde_history *h, const char *buf, size_t len, isolde_error *err);
/* Whether buf begins as a Cobra log, or a directory's logs (read_cobra.c). */
int iso_cobra_looks(const char *buf, size_t len);
/* Whether buf[0, len), read as values of a format (JSON values and '#'
 * comment lines, IsoCheck's; EDN forms) into a store of the call's own,
 * ends inside a value: 1 when it does, with err saying how (a line cut
 * short: more bytes could make it whole; read.c), 0 when it is whole
 * values, or fails on a byte that is wrong, or past a limit. */
int iso_json_cut(const char *name, const char *buf, size_t len, isolde_error *err);
int iso_edn_cut(const char *name, const char *buf, size_t len, isolde_error *err);
/* isolde_history_append_mem of an input's last bytes, a line with no
 * newline after it: when ops came before and it ends inside a value, it
 * is left out with a warning, as the batch's reader leaves a last line cut
 * short (read.c). */
isolde_status iso_history_append_end(isolde_history *h, const char *data, size_t len, isolde_error *err);
/* Guess the format from the first non-blank, non-comment bytes; *why (if
 * why is not NULL) is set to the reason, in words (static). */
isolde_format iso_detect_format(const char *buf, size_t len, const char **why);
/* Whether buf[0, len) begins as a binary history of a format isolde reads
 * (dbcop's bincode, Cobra's logs), whose bytes need not be text: that
 * format, else AUTO. */
isolde_format iso_detect_binary(const char *buf, size_t len);

#endif
