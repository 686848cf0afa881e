/*
 * cmd_serve.c -- `isolde serve DIR [--port N]`: the files under DIR over
 * HTTP on 127.0.0.1 only, for the playground (web/: a browser runs
 * WebAssembly from http, served as application/wasm, not from file://)
 * and for the reports -d writes. GET and HEAD, one request per connection,
 * each connection on a thread of its own whose request must come whole
 * within a deadline and whose response must be taken at a least rate, so
 * a client that sends nothing, or a byte at a time, or reads a byte at a
 * time, holds its thread for a bounded time; SIGINT or SIGTERM stops it
 * (exit 0).
 *
 * Invariant: nothing outside DIR, nothing hidden in it and nothing but a
 * regular file is ever sent, and only to a request for this server by
 * name. A request's Host must be 127.0.0.1:PORT or localhost:PORT (a web
 * page whose DNS name was made to point at 127.0.0.1 -- DNS rebinding --
 * sends its own name, and is told 421); HTTP/1.0 may leave Host out (a
 * browser never does). A request's path is percent-decoded, refused when
 * a segment of it begins with '.' (".", "..", ".git") or it holds a
 * backslash or a NUL; what realpath makes of it (symbolic links resolved)
 * must lie under realpath(DIR), hidden by no dot segment under it either,
 * and be a regular file, checked again on the descriptor opened (without
 * blocking: a FIFO is never waited on).
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
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define HEAD_MAX 8192      /* bytes of a request line and its headers */
#define DEADLINE_S 5       /* seconds a connection may take to send them all; a response's first byte's too */
#define MIN_RATE 1048576   /* bytes a second a response must be taken at, after its first DEADLINE_S */
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
                          "'isolde serve: http://127.0.0.1:PORT/ serving DIR', then runs until SIGINT.\n"
                          "It answers only requests for 127.0.0.1:PORT or localhost:PORT (Host; 421\n"
                          "otherwise, 400 for HTTP/1.1 without one), never sends a dotfile, anything\n"
                          "under a dot directory or anything but a regular file (403, 404), and drops a\n"
                          "client that takes more than 5 s to send its request or to take the first\n"
                          "byte of the response, or that then takes it slower than 1 MiB/s.\n");
    cli_help(out, st, &t, 1);
}

/* What serves: the real path of DIR and the port it listens on. */
struct site {
    char root[PATH_MAX];
    int port;
};

/* A connection, and when the bytes of its response are due. */
struct conn {
    int fd;
    const struct site *site;
    long long due;  /* ms (monotonic): the response's first byte's deadline */
    long long sent; /* bytes of the response sent: each later one is due at MIN_RATE after */
};

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

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether fd is ready for events (POLLIN: bytes or its end to read;
 * POLLOUT: room to write) before the clock says end. */
static int ready_by(int fd, short events, long long end)
{
    struct pollfd p = {fd, events, 0};
    long long left = end - now_ms();
    return left > 0 && poll(&p, 1, left < INT_MAX ? (int)left : INT_MAX) > 0;
}

/* n more bytes of c's response, without blocking past their deadline: 0,
 * or -1 when the client is gone or takes them too slowly. */
static int send_all(struct conn *c, const char *p, size_t n)
{
    while (n) {
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (!ready_by(c->fd, POLLOUT, c->due + c->sent * 1000 / MIN_RATE)) return -1;
            continue;
        }
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
        c->sent += k;
    }
    return 0;
}

static const char *reason_of(int code)
{
    switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 421: return "Misdirected Request";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
    }
}

static int send_head(struct conn *c, int code, const char *type, long long length)
{
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %lld\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n%sConnection: close\r\n\r\n",
                     code, reason_of(code), type, length, code == 405 ? "Allow: GET, HEAD\r\n" : "");
    return send_all(c, head, (size_t)n);
}

/* An error page: its status line and a one-line text body (none for HEAD). */
static int refuse(struct conn *c, int head_only, int code)
{
    char body[128];
    int n = snprintf(body, sizeof body, "%d %s\n", code, reason_of(code));
    if (send_head(c, code, "text/plain; charset=utf-8", n) == 0 && !head_only)
        send_all(c, body, (size_t)n);
    return code;
}

/* The request's head, NUL-terminated in buf: its length, or -1 when it did
 * not come whole within HEAD_MAX bytes (*too_long) or DEADLINE_S seconds. */
static ssize_t read_head(int fd, char *buf, int *too_long)
{
    size_t n = 0;
    long long end = now_ms() + DEADLINE_S * 1000;
    *too_long = 0;
    while (n < HEAD_MAX - 1) {
        ssize_t k = ready_by(fd, POLLIN, end) ? recv(fd, buf + n, HEAD_MAX - 1 - n, 0) : -1;
        if (k <= 0) return -1; /* closed, or the deadline passed */
        const char *from = buf + (n > 3 ? n - 3 : 0); /* where the new bytes may end the head */
        n += (size_t)k;
        buf[n] = 0;
        if (strstr(from, "\r\n\r\n") || strstr(from, "\n\n")) return (ssize_t)n;
    }
    *too_long = 1;
    return -1;
}

/* Whether the Host value v (len bytes) names this server: 127.0.0.1 or
 * localhost (any case), with its port (none meaning 80). */
static int our_host(const char *v, size_t len, int port)
{
    static const char *const names[] = {"127.0.0.1", "localhost"};
    char want[32];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int n = snprintf(want, sizeof want, "%s:%d", names[i], port);
        if ((size_t)n == len && strncasecmp(v, want, len) == 0) return 1;
        if (port == 80 && strlen(names[i]) == len && strncasecmp(v, names[i], len) == 0) return 1;
    }
    return 0;
}

/* The request head buf asks this server by name: 0, 400 (two Hosts, or
 * none in HTTP/1.1) or 421 (another name). */
static int check_host(const char *buf, int http11, int port)
{
    const char *v = NULL;
    int n = 0;
    for (const char *l = strchr(buf, '\n'); l && l[1] != '\r' && l[1] != '\n' && l[1]; l = strchr(l + 1, '\n'))
        if (strncasecmp(l + 1, "host:", 5) == 0) v = l + 6, n++;
    if (n != 1) return n || http11 ? 400 : 0;
    v += strspn(v, " \t");
    size_t len = strcspn(v, "\r\n");
    while (len && (v[len - 1] == ' ' || v[len - 1] == '\t')) len--;
    return our_host(v, len, port) ? 0 : 421;
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

/* A path (from '/') that may not be served: a segment of it begins with
 * '.' (".", "..", ".git", ".env") or it holds a backslash. */
static int hidden(const char *path)
{
    if (strchr(path, '\\')) return 1;
    for (const char *p = path; (p = strchr(p, '/')); p++)
        if (p[1] == '.') return 1;
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
    if (hidden(n > 1 ? real + n : real)) return 403; /* a link to a dotfile, say */
    return lstat(real, &st) == 0 && S_ISREG(st.st_mode) ? 0 : 404; /* a FIFO or a device is never opened */
}

/* The file real (opened without blocking and checked regular again: it may
 * have changed since resolve) with its head; the body streamed unless
 * head_only. The status sent. */
static int send_file(struct conn *c, const char *real, int head_only)
{
    int f = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (f < 0) return refuse(c, head_only, 404);
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        return refuse(c, head_only, 404);
    }
    int bad = send_head(c, 200, content_type(real), (long long)st.st_size);
    char chunk[65536];
    ssize_t k;
    while (!bad && !head_only && (k = read(f, chunk, sizeof chunk)) > 0) bad = send_all(c, chunk, (size_t)k);
    close(f);
    return 200;
}

/* One request on c: the status answered. */
static int answer(struct conn *c, char *method, char *target)
{
    int head_only = strcmp(method, "HEAD") == 0;
    if (!head_only && strcmp(method, "GET") != 0) return refuse(c, 0, 405);
    char path[PATH_MAX], real[PATH_MAX];
    if (decode_path(target, path, sizeof path) != 0) return refuse(c, head_only, 400);
    if (hidden(path)) return refuse(c, head_only, 403);
    int code = resolve(c->site->root, path, real);
    return code ? refuse(c, head_only, code) : send_file(c, real, head_only);
}

/* s for the access log: a byte outside printable ASCII (a terminal's
 * escape, say) becomes '?'. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) *s = '?';
}

static void serve_conn(struct conn *c)
{
    char buf[HEAD_MAX], method[16] = "?", target[HEAD_MAX] = "?", version[16] = "";
    int too_long;
    ssize_t n = read_head(c->fd, buf, &too_long);
    c->due = now_ms() + DEADLINE_S * 1000;
    if (n < 0) {
        if (too_long) refuse(c, 0, 431);
        return;
    }
    sscanf(buf, "%15s %8191s %15s", method, target, version);
    int http11 = strcmp(version, "HTTP/1.1") == 0;
    int code = http11 || strcmp(version, "HTTP/1.0") == 0 ? check_host(buf, http11, c->site->port) : 400;
    code = code ? refuse(c, strcmp(method, "HEAD") == 0, code) : answer(c, method, target);
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

/* The connection fd on a thread of its own, or a 503 when MAX_CONNS are
 * open (due now: the accepting thread never waits on a client). */
static void dispatch(int fd, const struct site *site)
{
    struct conn *c = malloc(sizeof *c), busy = {fd, site, now_ms(), 0};
    pthread_t t;
    pthread_attr_t a;
    if (c && atomic_fetch_add(&n_conns, 1) < MAX_CONNS) {
        *c = (struct conn){fd, site, 0, 0};
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &a, conn_thread, c);
        pthread_attr_destroy(&a);
        if (rc == 0) return;
    }
    if (c) atomic_fetch_sub(&n_conns, 1);
    refuse(&busy, 0, 503);
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
    static struct site site; /* static: connection threads may outlive the loop */
    struct stat st;
    if (!realpath(dir, site.root) || stat(site.root, &st) != 0 || !S_ISDIR(st.st_mode))
        return fprintf(stderr, "isolde serve: %s: not a directory\n", dir), EXIT_ERROR;
    int fd = listen_on(port, &site.port);
    if (fd < 0) return EXIT_ERROR;
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    printf("isolde serve: http://127.0.0.1:%d/ serving %s\n", site.port, site.root);
    if (cli_stdout_flushed()) return close(fd), EXIT_ERROR;
    while (!stop_flag) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 250) <= 0) continue; /* a signal, or a quarter second to look at stop_flag */
        int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
        if (c >= 0) dispatch(c, &site);
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
