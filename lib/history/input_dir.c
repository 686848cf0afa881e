/*
 * history/input_dir.c -- the bytes of a directory of logs, one file a
 * session, as Cobra (OSDI 2020) writes its histories (and PolySI and AWDIT
 * read them): every regular file whose name ends in ".log", in name order,
 * each as a frame of ISO_DIR_MARK, the name's length (4 bytes, little-
 * endian), the name, the file's length (8 bytes) and its bytes, one after
 * another in memory (read_cobra.c reads them). Only memory is held while an
 * allocation may unwind: the names are counted in one pass over the
 * directory, copied into the room made for them in a second, and a file's
 * room is made before it is opened; a file is read at most to the size it
 * had then.
 */
#include "history/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_log(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 4 && strcmp(d->d_name + n - 4, ".log") == 0;
}

/* The names of dir's logs: how many (*n) and their bytes with their NULs
 * (*bytes), copied into out[0, cap) as far as they fit when out is set.
 * Nothing is allocated from the guard while the directory is open. */
static int scan(const char *dir, char *out, size_t cap, size_t *bytes, size_t *n, isolde_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot list: %s", strerror(errno));
    *bytes = *n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_log(e)) continue;
        size_t m = strlen(e->d_name) + 1;
        if (out && *bytes + m <= cap) memcpy(out + *bytes, e->d_name, m);
        *bytes += m;
        ++*n;
    }
    closedir(d);
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of dir's logs, sorted (*n of them), in the guard's memory
 * (the list, and *block their bytes: both to free): counted, room made,
 * then copied by a second pass over the directory. */
static const char **log_names(const char *dir, size_t *n, char **block, isolde_error *err)
{
    size_t bytes, again, n2;
    if (scan(dir, NULL, 0, &bytes, n, err)) return NULL;
    char *names = *block = iso_xmalloc(bytes + 1);
    const char **list = iso_xmalloc((*n + 1) * sizeof *list);
    if (scan(dir, names, bytes, &again, &n2, err) ||
        ((again != bytes || n2 != *n) && iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "its files changed while it was read"))) {
        iso_free(list);
        return NULL;
    }
    for (size_t i = 0, at = 0; i < *n; at += strlen(names + at) + 1) list[i++] = names + at;
    qsort(list, *n, sizeof *list, cmp_name);
    return list;
}

static void put(iso_input *in, size_t *cap, const void *p, size_t n)
{
    ISO_GROW(in->buf, *cap, in->len + n);
    memcpy(in->buf + in->len, p, n);
    in->len += n;
}

static void put_le(iso_input *in, size_t *cap, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    put(in, cap, b, (size_t)bytes);
}

/* One log file's frame. */
static int frame(iso_input *in, size_t *cap, const char *dir, const char *name, isolde_error *err)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (stat(path, &st) != 0) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot stat: %s", strerror(errno));
    if (!S_ISREG(st.st_mode)) return 0;
    if ((uint64_t)st.st_size > ISO_MAX_INPUT - in->len)
        return iso_fail(err, ISOLDE_ERR_LIMIT, dir, 0, 0, "its logs hold more than %zu bytes", ISO_MAX_INPUT);
    put(in, cap, ISO_DIR_MARK, 2);
    put_le(in, cap, strlen(name), 4);
    put(in, cap, name, strlen(name));
    put_le(in, cap, (uint64_t)st.st_size, 8);
    ISO_GROW(in->buf, *cap, in->len + (size_t)st.st_size);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    size_t got = 0, want = (size_t)st.st_size;
    for (ssize_t r; got < want && ((r = read(fd, in->buf + in->len + got, want - got)) > 0 || (r < 0 && errno == EINTR));)
        got += r > 0 ? (size_t)r : 0;
    close(fd);
    if (got < want) return iso_fail(err, ISOLDE_ERR_IO, path, 0, 0, "cannot read it whole (%zu of %zu bytes)", got, want);
    in->len += got;
    return 0;
}

int iso_input_dir(const char *dir, iso_input *in, isolde_error *err)
{
    size_t n = 0, cap = 0;
    char *block = NULL;
    const char **names = log_names(dir, &n, &block, err);
    int rc = names ? 0 : -1;
    in->dir = 1;
    for (size_t i = 0; i < n && !rc; i++) rc = frame(in, &cap, dir, names[i], err);
    iso_free(names);
    iso_free(block);
    if (!rc && !in->len)
        rc = iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot read: is a directory, with no .log file in it (Cobra's logs)");
    return rc;
}
