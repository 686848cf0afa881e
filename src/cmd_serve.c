/*
 * cmd_serve.c -- `isolde serve DIR [--port N]`: the files under DIR over
 * HTTP on 127.0.0.1 only, for the playground (web/: a browser runs
 * WebAssembly from http, served as application/wasm, not from file://)
 * and for the reports -d writes. GET and HEAD, one request per connection,
 * each connection on a thread of its own whose request must come whole
 * within a deadline, so a client that sends nothing, or a byte at a time,
 * delays no other; SIGINT or SIGTERM stops it (exit 0).
 *
 * Invariant: nothing outside DIR is ever sent. A request's path is
 * percent-decoded, refused when it holds a ".." segment, a backslash or a
 * NUL, and what realpath makes of it (symbolic links resolved) must lie
 * under realpath(DIR).
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define HEAD_MAX 8192      /* bytes of a request line and its headers */
#define DEADLINE_S 5       /* seconds a connection may take to send them all, or to take a chunk */
#define MAX_CONNS 64       /* connections served at once; more are told 503 */

static volatile sig_atomic_t stop_flag;
static atomic_int n_conns;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct serve_cli {
    long port;
};

#define P(f) offsetof(struct serve_cli, f)
static const cli_opt serve_opts[] = {
    {0, "port", CLI_LONG, P(port), "N", "the port on 127.0.0.1 (8000; 0: any free one)", 0, 65535, NULL, 0},
};
#undef P

void cmd_serve_help(FILE *out, cli_style st)
{
    static struct serve_cli c;
    cli_table t = {"serve options", serve_opts, sizeof serve_opts / sizeof serve_opts[0], &c};
    cli_doc_usage(out, st, "isolde serve DIR [--port N]");
    cli_doc_text(out, st, "Serves the files under DIR over HTTP on 127.0.0.1 (GET and HEAD), e.g. the\n"
                          "playground: make playground && isolde serve web/. It prints\n"
                          "'isolde serve: http://127.0.0.1:PORT/ serving DIR', then runs until SIGINT.\n");
    cli_help(out, st, &t, 1);
}

/* The content type of a file name, by its extension. */
static const char *content_type(const char *path)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".wasm", "application/wasm"},
        {".css", "text/css; charset=utf-8"}, {".json", "application/json"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".txt", "text/plain; charset=utf-8"},
        {".dot", "text/plain; charset=utf-8"}, {".edn", "text/plain; charset=utf-8"},
        {".jsonl", "text/plain; charset=utf-8"},
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i][0]) == 0) return types[i][1];
    return "application/octet-stream";
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void send_head(int fd, int code, const char *reason, const char *type, long long length)
{
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %lld\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n%sConnection: close\r\n\r\n",
                     code, reason, type, length, code == 405 ? "Allow: GET, HEAD\r\n" : "");
    send_all(fd, head, (size_t)n);
}

/* An error page: its status line and a one-line text body (none for HEAD). */
static int refuse(int fd, int head_only, int code, const char *reason)
{
    char body[128];
    int n = snprintf(body, sizeof body, "%d %s\n", code, reason);
    send_head(fd, code, reason, "text/plain; charset=utf-8", n);
    if (!head_only) send_all(fd, body, (size_t)n);
    return code;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether fd has bytes (or its end) to read before the clock says end. */
static int readable_by(int fd, long long end)
{
    struct pollfd p = {fd, POLLIN, 0};
    long long left = end - now_ms();
    return left > 0 && poll(&p, 1, (int)left) > 0;
}

/* The request's head, NUL-terminated in buf: its length, or -1 when it did
 * not come whole within HEAD_MAX bytes (*too_long) or DEADLINE_S seconds. */
static ssize_t read_head(int fd, char *buf, int *too_long)
{
    size_t n = 0;
    long long end = now_ms() + DEADLINE_S * 1000;
    *too_long = 0;
    while (n < HEAD_MAX - 1) {
        ssize_t k = readable_by(fd, end) ? recv(fd, buf + n, HEAD_MAX - 1 - n, 0) : -1;
        if (k <= 0) return -1; /* closed, or the deadline passed */
        const char *from = buf + (n > 3 ? n - 3 : 0); /* where the new bytes may end the head */
        n += (size_t)k;
        buf[n] = 0;
        if (strstr(from, "\r\n\r\n") || strstr(from, "\n\n")) return (ssize_t)n;
    }
    *too_long = 1;
    return -1;
}

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The target's path percent-decoded into out (query and fragment cut):
 * 0, or -1 for a malformed one (no leading '/', a bad escape, a NUL). */
static int decode_path(const char *target, char *out, size_t size)
{
    if (target[0] != '/') return -1;
    size_t n = 0;
    for (const char *p = target; *p && *p != '?' && *p != '#'; p++) {
        int c = (unsigned char)*p;
        if (c == '%') {
            int hi = hex(p[1]), lo = hi < 0 ? -1 : hex(p[2]);
            if (lo < 0) return -1;
            c = hi * 16 + lo;
            p += 2;
        }
        if (c == 0 || n + 1 >= size) return -1;
        out[n++] = (char)c;
    }
    out[n] = 0;
    return 0;
}

/* A decoded path that may not be looked up at all: a ".." segment or a backslash. */
static int escapes(const char *path)
{
    if (strchr(path, '\\')) return 1;
    for (const char *p = path; (p = strstr(p, "..")); p += 2)
        if ((p == path || p[-1] == '/') && (p[2] == 0 || p[2] == '/')) return 1;
    return 0;
}

/* The file of a decoded path, under root (a real path): its real path in
 * real, a directory meaning its index.html. 0, or the HTTP status. */
static int resolve(const char *root, const char *path, char real[PATH_MAX])
{
    char want[PATH_MAX + 16];
    struct stat st;
    if (snprintf(want, sizeof want, "%s%s", root, path) >= PATH_MAX) return 404;
    if (stat(want, &st) == 0 && S_ISDIR(st.st_mode)) strcat(want, "/index.html");
    if (!realpath(want, real)) return 404;
    size_t n = strlen(root);
    if (strncmp(real, root, n) != 0 || (n > 1 && real[n] != '/' && real[n] != 0)) return 403; /* n 1: root is / */
    return 0;
}

/* The file real (opened and checked regular) with its head; the body
 * streamed unless head_only. The status sent. */
static int send_file(int fd, const char *real, int head_only)
{
    int f = open(real, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (f < 0) return refuse(fd, head_only, 404, "Not Found");
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        return refuse(fd, head_only, 404, "Not Found");
    }
    send_head(fd, 200, "OK", content_type(real), (long long)st.st_size);
    char chunk[65536];
    ssize_t k;
    while (!head_only && (k = read(f, chunk, sizeof chunk)) > 0)
        if (send_all(fd, chunk, (size_t)k) != 0) break;
    close(f);
    return 200;
}

/* One request on fd: the status answered. */
static int answer(int fd, const char *root, char *method, char *target)
{
    int head_only = strcmp(method, "HEAD") == 0;
    if (!head_only && strcmp(method, "GET") != 0) return refuse(fd, 0, 405, "Method Not Allowed");
    char path[PATH_MAX], real[PATH_MAX];
    if (decode_path(target, path, sizeof path) != 0) return refuse(fd, head_only, 400, "Bad Request");
    if (escapes(path)) return refuse(fd, head_only, 403, "Forbidden");
    int code = resolve(root, path, real);
    if (code) return refuse(fd, head_only, code, code == 403 ? "Forbidden" : "Not Found");
    return send_file(fd, real, head_only);
}

/* s for the access log: a byte outside printable ASCII (a terminal's
 * escape, say) becomes '?'. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) *s = '?';
}

struct conn {
    int fd;
    const char *root;
};

static void serve_conn(const struct conn *c)
{
    struct timeval tv = {DEADLINE_S, 0};
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    char buf[HEAD_MAX], method[16], target[HEAD_MAX];
    int too_long;
    if (read_head(c->fd, buf, &too_long) < 0) {
        if (too_long) refuse(c->fd, 0, 431, "Request Header Fields Too Large");
        return;
    }
    if (sscanf(buf, "%15s %8191s HTTP/%*d.%*d", method, target) != 2) {
        refuse(c->fd, 0, 400, "Bad Request");
        return;
    }
    int code = answer(c->fd, c->root, method, target);
    printable(method);
    printable(target);
    fprintf(stderr, "isolde serve: %s %s %d\n", method, target, code);
}

static void *conn_thread(void *arg)
{
    struct conn *c = arg;
    serve_conn(c);
    close(c->fd);
    free(c);
    atomic_fetch_sub(&n_conns, 1);
    return NULL;
}

/* The connection fd on a thread of its own, or a 503 when MAX_CONNS are open. */
static void dispatch(int fd, const char *root)
{
    struct conn *c = malloc(sizeof *c);
    pthread_t t;
    pthread_attr_t a;
    if (c && atomic_fetch_add(&n_conns, 1) < MAX_CONNS) {
        *c = (struct conn){fd, root};
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &a, conn_thread, c);
        pthread_attr_destroy(&a);
        if (rc == 0) return;
    }
    if (c) atomic_fetch_sub(&n_conns, 1);
    refuse(fd, 0, 503, "Service Unavailable");
    close(fd);
    free(c);
}

/* A socket listening on 127.0.0.1:port, its port in *bound; -1 with a message. */
static int listen_on(long port, int *bound)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        fprintf(stderr, "isolde serve: cannot listen on 127.0.0.1:%ld: %s\n", port, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    *bound = ntohs(sa.sin_port);
    return fd;
}

static int serve(const char *dir, long port)
{
    static char root[PATH_MAX]; /* static: connection threads may outlive the loop */
    struct stat st;
    if (!realpath(dir, root) || stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
        return fprintf(stderr, "isolde serve: %s: not a directory\n", dir), EXIT_ERROR;
    int bound, fd = listen_on(port, &bound);
    if (fd < 0) return EXIT_ERROR;
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    printf("isolde serve: http://127.0.0.1:%d/ serving %s\n", bound, root);
    if (cli_stdout_flushed()) return close(fd), EXIT_ERROR;
    while (!stop_flag) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 250) <= 0) continue; /* a signal, or a quarter second to look at stop_flag */
        int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
        if (c >= 0) dispatch(c, root);
        else if (errno == EMFILE || errno == ENFILE) poll(NULL, 0, 100); /* no descriptor left: not a busy loop */
    }
    close(fd);
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    static struct serve_cli c;
    c.port = 8000;
    cli_table t = {"serve options", serve_opts, sizeof serve_opts / sizeof serve_opts[0], &c};
    const char **pos = malloc((size_t)argc * sizeof *pos);
    int n_pos = 0, rc = cli_parse(argc, argv, "serve", &t, 1, NULL, NULL, pos, &n_pos);
    if (rc == CLI_HELP) cmd_serve_help(stdout, CLI_TEXT);
    if (rc == CLI_VERSION) cli_version();
    int status = rc < 0 ? EXIT_ERROR : 0;
    if (rc == 0 && n_pos != 1) status = EXIT_ERROR, fprintf(stderr, "isolde serve: one DIR (isolde serve --help)\n");
    else if (rc == 0) status = serve(pos[0], c.port);
    free(pos);
    return status;
}
