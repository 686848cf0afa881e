/*
 * elle/rw_register/txn_order.c -- read the --transaction-order file
 * (its bytes as a history's are got: a stream, gzip, binary data refused)
 * with the JSON value reader into a store of its own, then check and sort
 * its entries.
 */
#include "elle/rw_register/txn_order.h"
#include "history/input.h"
#include "history/read_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An integer written as decimal text (the JSON key), within int64. */
static int parse_index(const char *p, size_t n, int64_t *out)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || !((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '-')) return -1;
    *out = v;
    return 0;
}

static int parse_rank(const iso_store *s, iso_val v, double *out)
{
    if (iso_is_int(v)) {
        *out = (double)iso_as_int(v);
        return 0;
    }
    if (iso_tag(v) != ISO_TAG_FLOAT && iso_tag(v) != ISO_TAG_BIG) return -1;
    size_t n;
    const char *p = iso_atom_text(s, v, &n);
    char buf[64];
    if (n >= sizeof buf) return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    char *end;
    *out = strtod(buf, &end);
    return *end ? -1 : 0;
}

static int cmp_rank(const void *a, const void *b)
{
    int64_t x = ((const iso_txn_rank *)a)->index, y = ((const iso_txn_rank *)b)->index;
    return (x > y) - (x < y);
}

/* Turn the parsed object into sorted entries. */
static int entries(const iso_store *s, const char *name, iso_val obj, long line, long col,
                   iso_txn_rank **out, size_t *n, isolde_error *err)
{
    if (!iso_is_seq(obj) || iso_seq_kind(s, obj) != ISO_SEQ_MAP)
        return iso_fail(err, ISOLDE_ERR_PARSE, name, line, col,
                        "a transaction order is a JSON object {\"<completion index>\": rank, ...}");
    size_t len = iso_seq_len(s, obj) / 2;
    const iso_val *it = iso_seq_words(s, obj); /* a map: stored */
    iso_txn_rank *r = iso_xmalloc((len + 1) * sizeof *r);
    for (size_t i = 0; i < len; i++) {
        size_t kn;
        const char *kp = iso_atom_text(s, it[2 * i], &kn);
        if (parse_index(kp, kn, &r[i].index) || parse_rank(s, it[2 * i + 1], &r[i].rank)) {
            iso_free(r);
            return iso_fail(err, ISOLDE_ERR_PARSE, name, line, col,
                            "entry \"%.*s\": keys must be completion indices (integers) and "
                            "values numeric ranks", (int)(kn > 64 ? 64 : kn), kp);
        }
    }
    if (len) qsort(r, len, sizeof *r, cmp_rank);
    for (size_t i = 1; i < len; i++)
        if (r[i].index == r[i - 1].index) {
            int64_t dup = r[i].index;
            iso_free(r);
            return iso_fail(err, ISOLDE_ERR_PARSE, name, line, col, "completion index %lld is given twice",
                            (long long)dup);
        }
    *out = r;
    *n = len;
    return 0;
}

int iso_txn_order_parse(const char *name, const char *data, size_t len, iso_txn_rank **out,
                        size_t *n, isolde_error *err)
{
    *out = NULL;
    *n = 0;
    iso_store store;
    iso_store_init(&store);
    iso_rd rd;
    iso_rd_init_store(&rd, &store, name, data, len, err);
    iso_val obj;
    iso_json_skip(&rd, 0);
    long line = (long)rd.line, col = iso_rd_col(&rd);
    int rc = iso_json_value(&rd, &obj);
    if (rc == 0) {
        iso_json_skip(&rd, 0);
        if (!iso_rd_eof(&rd)) rc = iso_rd_unexpected(&rd, "the end of the file");
    }
    if (rc == 0) rc = entries(&store, name, obj, line, col, out, n, err);
    iso_rd_release(&rd);
    iso_store_free(&store);
    return rc;
}

int iso_txn_order_read(const char *path, iso_txn_rank **out, size_t *n, isolde_error *err)
{
    iso_input in;
    *out = NULL;
    *n = 0;
    const char *what = "a transaction order";
    int rc = iso_input_open(path, what, &in, err);
    if (rc == 0) rc = iso_input_text(in.name, what, in.buf ? in.buf : "", in.len, err); /* a mapped file's too */
    if (rc == 0) rc = iso_txn_order_parse(in.name, in.buf ? in.buf : "", in.len, out, n, err);
    iso_input_done(&in);
    iso_input_unmap(&in);
    if (!in.mapped) iso_free(in.buf);
    return rc;
}

int iso_txn_order_find(const iso_txn_rank *r, size_t n, int64_t index, double *rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].index < index) lo = mid + 1;
        else hi = mid;
    }
    if (lo == n || r[lo].index != index) return 0;
    *rank = r[lo].rank;
    return 1;
}
