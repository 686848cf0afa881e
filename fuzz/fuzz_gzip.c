/*
 * fuzz/fuzz_gzip.c -- gzip: the input as a history file's gzip data
 * (history/input.c's inflating, an internal entry point, and the file
 * through the public read), and the input gzip-compressed (one member,
 * two, one with a byte after it) inflated back.
 *
 * Promises checked: inflating gives bytes that are text (iso_input_text)
 * or a clean error (fuzz_check_error) whose compressed byte, when it names
 * one, is within the input; a gzip file reads as its inflated bytes read
 * from memory do (the same status, the same ops); the input compressed
 * inflates to itself exactly when it is text, and is refused as binary
 * data (a parse error) when it is not; a byte after the last member is an
 * error at that byte's offset.
 */
#include "fuzz.h"
#include "core/alloc.h"
#include "history/input.h"

#include <stdlib.h>
#include <string.h>
#ifdef ISO_HAVE_ZLIB
#include <zlib.h>
#endif

struct inflate_call {
    const uint8_t *data;
    size_t len;
    char *out;
    size_t n;
    isolde_error *err;
};

static int inflate_under_guard(void *arg)
{
    struct inflate_call *c = arg;
    iso_input in = {.name = "fuzz", .what = "a history", .buf = (char *)(uintptr_t)c->data, .len = c->len};
    return iso_input_inflate(&in, &c->out, &c->n, c->err);
}

/* data[0, len) inflated into *out (to iso_free), or an error, checked. */
static isolde_status inflated(const uint8_t *data, size_t len, char **out, size_t *n, isolde_error *err)
{
    struct inflate_call c = {data, len, NULL, 0, err};
    memset(err, 0, sizeof *err);
    if (iso_guarded(inflate_under_guard, &c, err) != 0) {
        fuzz_check_error("iso_input_inflate", err->code, err, c.out);
        long long at = fuzz_compressed_byte(err);
        if (at > (long long)len) fuzz_fail("inflating failed at compressed byte %lld of %zu", at, len);
        return err->code;
    }
    isolde_error probe;
    if (iso_input_text("fuzz", "a history", c.out ? c.out : "", c.n, &probe) != 0)
        fuzz_fail("inflated bytes that are no text passed: %s", probe.msg);
    *out = c.out;
    *n = c.n;
    return ISOLDE_OK;
}

/* The input as a gzip file: read as a file, it reads as its inflated
 * bytes do from memory. */
static void as_file(const uint8_t *data, size_t len)
{
    char *out = NULL;
    size_t n = 0;
    isolde_error err, e2;
    isolde_status s = inflated(data, len, &out, &n, &err);
    if (len < 2 || data[0] != 0x1f || data[1] != 0x8b) { /* read as it is, not inflated */
        iso_free(out);
        return;
    }
    isolde_history *h = NULL, *m = NULL;
    isolde_status f = isolde_history_read_file(fuzz_scratch_file(data, len), NULL, &h, &e2);
    if (f != ISOLDE_OK) fuzz_check_error("isolde_history_read_file", f, &e2, h);
    isolde_status r = s != ISOLDE_OK ? s : isolde_history_read_mem("fuzz", out ? out : "", n, NULL, &m, &err);
    if (f != r) fuzz_fail("a gzip file read with status %d, its bytes inflated and read %d", (int)f, (int)r);
    if (f == ISOLDE_OK && isolde_history_op_count(h) != isolde_history_op_count(m))
        fuzz_fail("a gzip file read %zu ops, its bytes inflated %zu", isolde_history_op_count(h),
                  isolde_history_op_count(m));
    isolde_history_free(h);
    isolde_history_free(m);
    iso_free(out);
}

#ifdef ISO_HAVE_ZLIB
/* data[0, len) as one gzip member appended to *gz (malloc'd, *n long). */
static void gzip_member(const uint8_t *data, size_t len, uint8_t **gz, size_t *n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) fuzz_fail("deflateInit2");
    size_t room = deflateBound(&z, (uLong)len) + 32;
    *gz = realloc(*gz, *n + room);
    if (!*gz) fuzz_fail("out of memory");
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = *gz + *n;
    z.avail_out = (uInt)room;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) fuzz_fail("deflate");
    *n += room - z.avail_out;
    deflateEnd(&z);
}

/* gz inflates to data when data is text, else it is refused as binary. */
static void inflates_back(const uint8_t *gz, size_t n, const uint8_t *data, size_t len, int text)
{
    char *out = NULL;
    size_t got = 0;
    isolde_error err;
    isolde_status s = inflated(gz, n, &out, &got, &err);
    if (text && s != ISOLDE_OK) fuzz_fail("text compressed did not inflate: %s", err.msg);
    if (!text && s != ISOLDE_ERR_PARSE) fuzz_fail("binary data compressed inflated (%d)", (int)s);
    if (text && (got != len || (len && memcmp(out, data, len) != 0)))
        fuzz_fail("%zu bytes compressed inflated to %zu others", len, got);
    iso_free(out);
}

static void round_trips(const uint8_t *data, size_t len)
{
    isolde_error probe;
    int text = iso_input_text("fuzz", "a history", len ? (const char *)data : "", len, &probe) == 0;
    uint8_t *gz = NULL;
    size_t n = 0;
    gzip_member(data, len, &gz, &n);
    inflates_back(gz, n, data, len, text);
    size_t one = n;
    gz = realloc(gz, n + 1);
    if (!gz) fuzz_fail("out of memory");
    gz[n] = len ? data[0] : 'x'; /* one byte after the member: no member begins with one byte */
    char *out = NULL;
    size_t got;
    isolde_error err;
    if (inflated(gz, n + 1, &out, &got, &err) == ISOLDE_OK) fuzz_fail("a byte after the gzip data was taken");
    if (text && fuzz_compressed_byte(&err) != (long long)one)
        fuzz_fail("a byte after %zu bytes of gzip data: %s", one, err.msg);
    n = 0;
    gzip_member(data, len / 2, &gz, &n);
    gzip_member(data + len / 2, len - len / 2, &gz, &n);
    inflates_back(gz, n, data, len, text);
    free(gz);
}
#else
static void round_trips(const uint8_t *data, size_t len)
{
    (void)data, (void)len;
}
#endif

static void test(const uint8_t *data, size_t len)
{
    as_file(data, len);
    round_trips(data, len);
}

const struct fuzz_kind fuzz_gzip_kind = {"gzip", NULL, NULL, test};
