/*
 * cmd_repair.c -- `isolde repair FILE...`: a history of one op per line
 * that a killed writer left (`isolde run` killed by SIGKILL; docs/FORMATS.md
 * says what that leaves), made whole in place: the filler after the last
 * line goes (spaces, blank lines: what older isolde versions left), and a
 * last line that the kill cut short, which does not read as an op by
 * itself, is dropped. The lines before it are never touched. A file is
 * a history of one op per line when its first line that is not blank or
 * a comment (what reads as no op) is an op by itself; any other file (a
 * Markdown file: '# Title' reads as an IsoCheck comment, the text after
 * it as no op) is left as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define BLOCK 65536

static int is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* Just past the last byte before end that is not white space (0: none);
 * -1 on a read error. */
static off_t content_end(int fd, off_t end)
{
    char buf[BLOCK];
    while (end > 0) {
        size_t n = end < BLOCK ? (size_t)end : BLOCK;
        if (pread(fd, buf, n, end - (off_t)n) != (ssize_t)n) return -1;
        for (size_t i = n; i-- > 0;)
            if (!is_space(buf[i])) return end - (off_t)n + (off_t)i + 1;
        end -= (off_t)n;
    }
    return 0;
}

/* Where the line holding the byte before end starts. */
static off_t line_start(int fd, off_t end)
{
    char buf[BLOCK];
    while (end > 0) {
        size_t n = end < BLOCK ? (size_t)end : BLOCK;
        if (pread(fd, buf, n, end - (off_t)n) != (ssize_t)n) return -1;
        for (size_t i = n; i-- > 0;)
            if (buf[i] == '\n') return end - (off_t)n + (off_t)i + 1;
        end -= (off_t)n;
    }
    return 0;
}

/* Whether the line [start, end) reads as a history by itself (read with
 * its newline, so that a cut line is an error, not a warning): 1 yes,
 * with *ops its ops (0: a blank or comment line), 0 no (why in err), -1
 * when it could not be tried (err says why). */
static int reads_alone(int fd, const char *path, off_t start, off_t end, size_t *ops, isolde_error *err)
{
    size_t n = (size_t)(end - start);
    char *p = malloc(n + 1);
    if (!p) return snprintf(err->msg, sizeof err->msg, "out of memory"), -1;
    int rc = -1;
    if (pread(fd, p, n, start) != (ssize_t)n) {
        snprintf(err->msg, sizeof err->msg, "cannot read: %s", strerror(errno));
    } else {
        isolde_history *h = NULL;
        p[n] = '\n';
        isolde_status s = isolde_history_read_mem(path, p, n + 1, NULL, &h, err);
        *ops = isolde_history_op_count(h);
        isolde_history_free(h);
        rc = s == ISOLDE_OK ? 1 : s == ISOLDE_ERR_PARSE ? 0 : -1;
    }
    free(p);
    return rc;
}

/* Where the line starting at `at` ends (its newline, or end). */
static off_t line_end(int fd, off_t at, off_t end)
{
    char buf[BLOCK];
    for (ssize_t got; at < end && (got = pread(fd, buf, BLOCK, at)) > 0; at += got) {
        char *nl = memchr(buf, '\n', (size_t)got);
        if (nl) return at + (nl - buf) < end ? at + (nl - buf) : end;
    }
    return at < end ? at : end;
}

/* Whether the first line before end that is not blank or a comment is an
 * op by itself (what makes the file a history of one op per line): 1, or
 * 0 having printed why the file is left alone. */
static int first_is_op(int fd, const char *path, off_t end)
{
    isolde_error err;
    const char *why = "no line of it is an op";
    for (off_t at = 0; at < end;) {
        off_t e = line_end(fd, at, end);
        size_t ops = 0;
        int r = reads_alone(fd, path, at, e, &ops, &err);
        if (r < 0) return cli_print_error(&err), 0;
        if (r && ops) return 1;
        if (!r) {
            why = "its first line that is not blank or a comment is not an op by itself";
            break;
        }
        at = e + 1;
    }
    fprintf(stderr, "isolde repair: %s: %s, so it is not a history of one op per line: left as it is\n", path, why);
    return 0;
}

/* The end of the history to keep: just after the last line that reads as
 * an op (or a comment), or -1 having printed why the file is left alone. */
static off_t keep_end(int fd, const char *path, off_t size)
{
    isolde_error err;
    off_t end = content_end(fd, size), last = end < 0 ? -1 : line_start(fd, end);
    if (end < 0 || last < 0) return fprintf(stderr, "isolde repair: %s: cannot read: %s\n", path, strerror(errno)), -1;
    if (end == 0) return 0;
    if (!first_is_op(fd, path, end)) return -1;
    size_t ops;
    int whole = reads_alone(fd, path, last, end, &ops, &err);
    if (whole < 0) return cli_print_error(&err), -1;
    if (whole) return end;
    printf("%s: dropped its last line (from byte %lld), which was cut short: %s\n", path,
           (long long)last, err.msg);
    return content_end(fd, last);
}

static int repair(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "isolde repair: %s: %s\n", path, fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0) close(fd);
        return EXIT_ERROR;
    }
    off_t end = keep_end(fd, path, st.st_size);
    int rc = end < 0 ? EXIT_ERROR : 0;
    off_t want = end > 0 ? end + 1 : 0;
    char last = 0;
    if (end > 0 && pread(fd, &last, 1, end) < 0) last = 0;
    if (!rc && want == st.st_size && (end == 0 || last == '\n')) {
        printf("%s: nothing to repair\n", path);
    } else if (!rc) {
        if ((end > 0 && pwrite(fd, "\n", 1, end) != 1) || ftruncate(fd, want) < 0) {
            fprintf(stderr, "isolde repair: %s: cannot write: %s\n", path, strerror(errno));
            rc = EXIT_ERROR;
        } else {
            printf("%s: %lld byte%s after its last op removed\n", path, (long long)(st.st_size - want),
                   st.st_size - want == 1 ? "" : "s");
        }
    }
    close(fd);
    return rc;
}

void cmd_repair_help(FILE *out, cli_style st)
{
    cli_doc_usage(out, st, "isolde repair FILE...");
    cli_doc_text(out, st, "Makes a history of one op per line that a killed writer left whole, in place:\n"
                          "removes the filler after its last line (spaces, blank lines) and drops a last\n"
                          "line that was cut short. The lines before it are never changed. A file whose\n"
                          "first line that is not blank or a comment is no op is left as it is.\n");
    cli_doc_item(out, st, "-h, --help", "this text");
    cli_doc_item(out, st, "-V, --version", "print the version");
    cli_doc_text(out, st, "exit status: 0 repaired (or nothing to repair), 3 error\n");
}

int cmd_repair(int argc, char **argv)
{
    const char **files = malloc((size_t)argc * sizeof *files);
    int n = 0, rc = cli_parse(argc, argv, "repair", NULL, 0, NULL, NULL, files, &n);
    if (rc == CLI_VERSION) cli_version();
    else if (rc > 0 || (!rc && !n)) cmd_repair_help(rc > 0 ? stdout : stderr, CLI_TEXT);
    int status = rc > 0 ? 0 : rc < 0 || !n ? EXIT_ERROR : 0;
    for (int i = 0; !rc && i < n; i++)
        if (repair(files[i])) status = EXIT_ERROR;
    free(files);
    return status;
}
