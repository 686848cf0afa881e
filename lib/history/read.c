/*
 * history/read.c -- reading a history from memory or a file: the byte
 * order mark, format detection, and the format table that sends the bytes
 * to their reader (read_*.c). A file is mapped when it is a regular file
 * (the readers give its consumed pages back while they read), else read.
 */
#include "history/read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const format_names[] = {"auto", "edn", "json", "jsonl", "onelite",
                                           "isocheck", "jepsen-log"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int read_as(iso_history *h, const char *data, size_t len, iso_error *err)
{
    switch (h->format) {
    case ISO_FORMAT_EDN: return iso_read_edn(h, data, len, err);
    case ISO_FORMAT_ONELITE: return iso_read_onelite(h, data, len, err);
    case ISO_FORMAT_JEPSEN_LOG: return iso_read_jepsen_log(h, data, len, err);
    default: return iso_read_json(h, data, len, err);
    }
}

/* Read data[0, len); mapped: it is a private file mapping of ours. */
static int read_buffer(const char *name, const char *data, size_t len, iso_format format,
                       int mapped, iso_history **out, iso_error *err)
{
    *out = NULL;
    if ((unsigned)format >= COUNT(format_names))
        return iso_fail(err, name, 0, 0, "unknown history format %d", (int)format);
    if (len >= UINT32_MAX)
        return iso_fail(err, name, 0, 0, "history larger than 4 GiB");
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) { /* UTF-8 byte order mark */
        data += 3;
        len -= 3;
    }
    if (format == ISO_FORMAT_AUTO) format = iso_detect_format(data, len);
    iso_history *h = iso_history_new(name, format);
    /* Values take about two words per 8 input bytes: reserve that much
     * (untouched pages cost nothing) to avoid copying while growing. */
    ISO_GROW(h->store.words, h->store.cap_words, len / 4 + 64);
    h->drop_input = mapped;
    if (format == ISO_FORMAT_JEPSEN_LOG) h->cas_fail_default = ISO_CAS_FAIL_FALSE;
    if (read_as(h, data, len, err) != 0) {
        iso_history_free(h);
        return -1;
    }
    h->drop_input = 0; /* the input is gone after this */
    *out = h;
    return 0;
}

int iso_history_read_mem(const char *name, const char *data, size_t len,
                         iso_format format, iso_history **out, iso_error *err)
{
    return read_buffer(name, data, len, format, 0, out, err);
}

/* Whole file into *buf: mapped when it is a regular file, else read. */
static int slurp(int fd, const char *path, char **buf, size_t *len, int *mapped,
                 iso_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return iso_fail(err, path, 0, 0, "cannot stat: %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return iso_fail(err, path, 0, 0, "cannot read: is a directory");
    *mapped = 0;
    *buf = NULL;
    *len = 0;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            *buf = p;
            *len = (size_t)st.st_size;
            *mapped = 1;
            return 0;
        }
    }
    size_t cap = 0;
    for (;;) {
        ISO_GROW(*buf, cap, *len + 65536);
        ssize_t n = read(fd, *buf + *len, cap - *len);
        if (n == 0) return 0;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            iso_free(*buf);
            return iso_fail(err, path, 0, 0, "cannot read: %s", strerror(errno));
        }
        *len += (size_t)n;
    }
}

int iso_history_read_file(const char *path, iso_format format, iso_history **out,
                          iso_error *err)
{
    *out = NULL;
    iso_phase(NULL);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return iso_fail(err, path, 0, 0, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    int mapped = 0;
    int r = slurp(fd, path, &buf, &len, &mapped, err);
    close(fd);
    if (r != 0) return -1;
    r = read_buffer(path, buf ? buf : "", len, format, mapped, out, err);
    if (mapped) munmap(buf, len);
    else iso_free(buf);
    iso_phase("read");
    return r;
}

/* ---- names ---------------------------------------------------------- */

static int parse_name(const char *const *names, size_t n, const char *name, int *out)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0) {
            *out = (int)i;
            return 0;
        }
    return -1;
}

const char *iso_format_name(iso_format f)
{
    return (unsigned)f < COUNT(format_names) ? format_names[f] : "?";
}

int iso_format_parse(const char *name, iso_format *out)
{
    int i;
    if (parse_name(format_names, COUNT(format_names), name, &i) != 0) return -1;
    *out = (iso_format)i;
    return 0;
}
