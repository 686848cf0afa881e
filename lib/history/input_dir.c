/*
 * history/input_dir.c -- the bytes of a directory of logs, one file a
 * session, as Cobra (OSDI 2020) writes its histories (and PolySI and AWDIT
 * read them): every regular file whose name ends in ".log", in name order,
 * each as a frame of ISO_DIR_MARK, the name's length (4 bytes, little-
 * endian), the name, the file's length (8 bytes) and its bytes, one after
 * another in memory (read_cobra.c reads them). Only memory is held while an
 * allocation may unwind: the names are listed (scandir's memory, freed
 * before anything of the guard's is made) and a file's room is made before
 * it is opened, and a file is read at most to the size it had then.
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

/* The names of dir's logs, sorted, as one block of the guard's: "a\0b\0". */
static char *log_names(const char *dir, size_t *n, isolde_error *err)
{
    struct dirent **list;
    int k = scandir(dir, &list, is_log, alphasort);
    if (k < 0) return iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot list: %s", strerror(errno)), NULL;
    size_t bytes = 1;
    for (int i = 0; i < k; i++) bytes += strlen(list[i]->d_name) + 1;
    char *names = malloc(bytes), *p = names;
    if (names) *names = '\0';
    for (int i = 0; names && i < k; i++) p = stpcpy(p, list[i]->d_name) + 1;
    for (int i = 0; i < k; i++) free(list[i]);
    free(list);
    if (!names) return iso_fail(err, ISOLDE_ERR_NOMEM, dir, 0, 0, "no memory for its file names"), NULL;
    char *out = iso_xmalloc(bytes); /* may unwind: the malloc'd copy would leak, so copy it first */
    memcpy(out, names, bytes);
    free(names);
    *n = (size_t)k;
    return out;
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
    size_t n, cap = 0;
    char *names = log_names(dir, &n, err);
    if (!names) return -1;
    int rc = 0;
    const char *p = names;
    for (size_t i = 0; i < n && !rc; i++, p += strlen(p) + 1) rc = frame(in, &cap, dir, p, err);
    iso_free(names);
    if (!rc && !in->len)
        rc = iso_fail(err, ISOLDE_ERR_IO, dir, 0, 0, "cannot read: is a directory, with no .log file in it (Cobra's logs)");
    return rc;
}
