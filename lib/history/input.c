/*
 * history/input.c -- the bytes of a history file, safely: "-" is standard
 * input; a regular file is mapped (the readers give its consumed pages
 * back as they go), with the calling guard catching the bus fault that a
 * truncation by another process would raise, so that it fails the call
 * instead of killing the process (and where the program has a SIGBUS
 * handler of its own, the file is read instead); a pipe, a device or
 * standard input is read, up to a limit checked as the bytes come; gzip
 * data is inflated (with zlib, when isolde is built with it), a MiB at a
 * time, within the stream's limit and a bound on its ratio. Binary data
 * and UTF-16 are refused from their first bytes, so /dev/zero or a
 * compressed bomb costs a block, not the machine's memory. The same bytes
 * serve other files isolde reads (a transaction order): `what` names them.
 */
#include "history/input.h"
#include "history/read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef ISO_HAVE_ZLIB
#include <zlib.h>
#endif

#define PROBE ((size_t)64 << 10) /* bytes judged by iso_input_text */
#define CHUNK ((size_t)1 << 20)

/* ---- what no history is ---------------------------------------------------- */

/* UTF-16 without a byte order mark: ASCII text with every other byte 0. */
static int utf16_text(const unsigned char *p, size_t n)
{
    if (n < 8) return 0;
    size_t zeros[2] = {0, 0};
    for (size_t i = 0; i < n && i < 256; i++) zeros[i & 1] += p[i] == 0;
    size_t half = (n < 256 ? n : 256) / 2;
    return (zeros[0] * 4 >= half * 3 && zeros[1] * 4 <= half) || (zeros[1] * 4 >= half * 3 && zeros[0] * 4 <= half);
}

int iso_input_text(const char *name, const char *what, const char *buf, size_t len, isolde_error *err)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t n = len < PROBE ? len : PROBE;
    if (n >= 4 && ((p[0] == 0xff && p[1] == 0xfe && !p[2] && !p[3]) || (!p[0] && !p[1] && p[2] == 0xfe && p[3] == 0xff)))
        return iso_fail(err, ISOLDE_ERR_PARSE, name, 1, 1,
                        "UTF-32 is not supported: convert the file to UTF-8 (iconv -f UTF-32 -t UTF-8)");
    if ((n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff))) || utf16_text(p, n))
        return iso_fail(err, ISOLDE_ERR_PARSE, name, 1, 1,
                        "UTF-16 is not supported: convert the file to UTF-8 (iconv -f UTF-16 -t UTF-8)");
    const unsigned char *nul = memchr(p, 0, n);
    if (nul && strcmp(what, "a history") == 0 && iso_detect_binary(buf, len) != ISOLDE_FORMAT_AUTO) return 0;
    if (nul)
        return iso_fail(err, ISOLDE_ERR_PARSE, name, 0, 0,
                        "binary data (a NUL byte at offset %zu), not %s", (size_t)(nul - p), what);
    return 0;
}

/* ---- reading ---------------------------------------------------------------- */

/* At most this much from a stream or out of gzip data: ISO_MAX_INPUT, and
 * no more than half the machine's memory. */
static size_t stream_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t half = pages > 0 && page > 0 ? (size_t)pages / 2 * (size_t)page : ISO_MAX_INPUT;
    return half < ISO_MAX_INPUT ? half : ISO_MAX_INPUT;
}

static int too_big(const iso_input *in, size_t limit, const char *what, isolde_error *err)
{
    return iso_fail(err, ISOLDE_ERR_LIMIT, in->name, 0, 0,
                    "%s more than %zu bytes: isolde reads a stream or compressed data up to half this "
                    "machine's memory, at most %zu bytes", what, limit, ISO_MAX_INPUT);
}

static int gzip_magic(const char *p, size_t n)
{
    return n >= 2 && (unsigned char)p[0] == 0x1f && (unsigned char)p[1] == 0x8b;
}

/* The first PROBE bytes of a growing buffer, judged once they are there
 * (or the input ended); with gzip_next, gzip data passes (it is judged
 * once inflated). */
static int probe_once(const iso_input *in, const char *buf, size_t n, int end, int gzip_next, int *done,
                      isolde_error *err)
{
    if (*done || (n < PROBE && !end)) return 0;
    *done = 1;
    return gzip_next && gzip_magic(buf, n) ? 0 : iso_input_text(in->name, in->what, buf, n, err);
}

/* A pipe, a device or standard input, into memory. */
static int read_stream(int fd, iso_input *in, isolde_error *err)
{
    size_t cap = 0, limit = stream_limit();
    int probed = 0;
    for (;;) {
        if (in->len > limit) return too_big(in, limit, "it holds", err);
        ISO_GROW(in->buf, cap, in->len + CHUNK);
        ssize_t n = read(fd, in->buf + in->len, cap - in->len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return iso_fail(err, ISOLDE_ERR_IO, in->name, 0, 0, "cannot read: %s", strerror(errno));
        in->len += (size_t)n;
        if (probe_once(in, in->buf, in->len, n == 0, 1, &probed, err)) return -1;
        if (n == 0) return 0;
    }
}

/* A regular file, mapped, when the guard can catch a bus fault. 1 when
 * it is, 0 to read it instead. */
static int map_file(int fd, const struct stat *st, iso_input *in)
{
    if (!S_ISREG(st->st_mode) || st->st_size <= 0 || (uintmax_t)st->st_size > SIZE_MAX) return 0;
    if (iso_guard_catch_bus(1) != 0) return 0;
    void *p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        iso_guard_catch_bus(0);
        return 0;
    }
    in->buf = p;
    in->len = (size_t)st->st_size;
    in->mapped = in->bus_guard = 1;
    return 1;
}

/* ---- gzip --------------------------------------------------------------------- */

#ifdef ISO_HAVE_ZLIB
/* zlib's memory is the call's: an unwinding guard frees it too. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return iso_xmalloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    iso_free(p);
}

/* Inflating failed: z and the output so far freed, err filled (or, when
 * why is NULL, filled already). at: the compressed byte it failed at. */
static int z_fail(const iso_input *in, z_stream *z, char **out, size_t at, const char *why, isolde_error *err)
{
    if (why)
        iso_fail(err, ISOLDE_ERR_PARSE, in->name, 0, 0, "cannot inflate the gzip data: %s (at compressed byte %zu)",
                 why, at);
    inflateEnd(z);
    iso_free(*out);
    *out = NULL;
    return -1;
}

/* A compression bomb: past BOMB_OUT bytes inflated, more than BOMB_RATIO
 * out per byte in. Deflate's best is about 1030:1, reached by runs of one
 * byte (a bomb); histories compress about 10:1 (docs/FORMATS.md). */
#define BOMB_OUT ((size_t)64 << 20)
#define BOMB_RATIO 1000
static int bomb(const iso_input *in, size_t used, size_t at, isolde_error *err)
{
    if (used <= BOMB_OUT || used / BOMB_RATIO <= at) return 0;
    return iso_fail(err, ISOLDE_ERR_LIMIT, in->name, 0, 0,
                    "refused as a compression bomb: its first %zu compressed bytes inflate to %zu, more than "
                    "%d:1 (histories compress about 10:1); if it is a history, gunzip it and check the file",
                    at, used, BOMB_RATIO);
}

/* Inflate in's gzip members into *out[0, *n); what follows a member must
 * be another one. */
static int inflate_all(const iso_input *in, char **out, size_t *n, isolde_error *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    if (inflateInit2(&z, 15 + 32) != Z_OK) return iso_fail(err, ISOLDE_ERR_NOMEM, in->name, 0, 0, "zlib");
    size_t cap = 0, used = 0, limit = stream_limit();
    const unsigned char *base = (const unsigned char *)in->buf, *src = base, *end = src + in->len;
    int probed = 0;
    for (;;) {
        ISO_GROW(*out, cap, used + CHUNK);
        if (!z.avail_in) {
            z.next_in = (Bytef *)src;
            z.avail_in = (uInt)((size_t)(end - src) < (size_t)UINT_MAX ? (size_t)(end - src) : UINT_MAX);
            src += z.avail_in;
        }
        z.next_out = (Bytef *)*out + used;
        z.avail_out = (uInt)CHUNK; /* a chunk at a time: the limits are checked between chunks */
        int r = inflate(&z, Z_NO_FLUSH);
        used += CHUNK - z.avail_out;
        size_t at = (size_t)((const unsigned char *)z.next_in - base);
        int last = r == Z_STREAM_END && at == in->len;
        if (used > limit) too_big(in, limit, "its gzip data inflates to", err);
        if (used > limit || bomb(in, used, at, err) || probe_once(in, *out, used, last, 0, &probed, err))
            return z_fail(in, &z, out, at, NULL, err);
        if (last) break;
        if (r == Z_STREAM_END && !gzip_magic((const char *)base + at, in->len - at))
            return z_fail(in, &z, out, at, "what follows the end of the gzip data is not another gzip member", err);
        if (r == Z_STREAM_END) { /* another member follows */
            inflateReset(&z);
            continue;
        }
        if (r == Z_BUF_ERROR && at == in->len) return z_fail(in, &z, out, at, "it ends early (truncated?)", err);
        if (r != Z_OK && r != Z_BUF_ERROR) return z_fail(in, &z, out, at, z.msg ? z.msg : "bad data", err);
    }
    inflateEnd(&z);
    *n = used;
    return 0;
}
#endif

int iso_input_inflate(const iso_input *in, char **out, size_t *n, isolde_error *err)
{
#ifdef ISO_HAVE_ZLIB
    return inflate_all(in, out, n, err);
#else
    (void)out, (void)n;
    return iso_fail(err, ISOLDE_ERR_USAGE, in->name, 0, 0,
                    "gzip-compressed, but this isolde was built without zlib: gunzip it first, or "
                    "rebuild with zlib (zlib1g-dev)");
#endif
}

/* gzip data in in: its inflated bytes instead (in memory). */
static int gunzip(iso_input *in, isolde_error *err)
{
    char *out = NULL;
    size_t n = 0;
    if (iso_input_inflate(in, &out, &n, err)) return -1;
    iso_input_done(in);
    iso_input_unmap(in);
    if (!in->mapped) iso_free(in->buf);
    in->buf = out;
    in->len = n;
    in->mapped = 0;
    return 0;
}

/* ---- the input ------------------------------------------------------------------ */

int iso_input_open(const char *path, const char *what, iso_input *in, isolde_error *err)
{
    int std = strcmp(path, "-") == 0;
    memset(in, 0, sizeof *in);
    in->name = std ? "<stdin>" : path;
    in->what = what;
    int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    int rc = fstat(fd, &st) != 0 ? iso_fail(err, ISOLDE_ERR_IO, in->name, 0, 0, "cannot stat: %s", strerror(errno))
           : S_ISDIR(st.st_mode) && strcmp(what, "a history") != 0
               ? iso_fail(err, ISOLDE_ERR_IO, in->name, 0, 0, "cannot read: is a directory")
           : 0;
    if (rc == 0 && !std && S_ISDIR(st.st_mode)) {
        close(fd);
        return iso_input_dir(path, in, err) ? (iso_free(in->buf), in->buf = NULL, -1) : 0;
    }
    if (rc == 0 && (std || !map_file(fd, &st, in))) rc = read_stream(fd, in, err); /* stdin: from where it is */
    if (!std) close(fd);
    if (rc == 0 && gzip_magic(in->buf, in->len)) rc = gunzip(in, err);
    if (rc && !in->mapped) { /* a failed call frees what it made (a mapping: the caller unmaps it) */
        iso_free(in->buf);
        in->buf = NULL;
    }
    return rc;
}

void iso_input_done(iso_input *in)
{
    if (in->bus_guard) iso_guard_catch_bus(0);
    in->bus_guard = 0;
}

void iso_input_unmap(iso_input *in)
{
    if (in->mapped && in->buf) munmap(in->buf, in->len);
    if (in->mapped) in->buf = NULL;
}
