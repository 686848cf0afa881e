/*
 * test_proxy.c -- the fault proxy (lib/nemesis/proxy.c, proxy_cmd.c) on
 * loopback, the test itself both the client and the target: bytes pass
 * both ways in order (a megabyte, more than the proxy holds), ends pass
 * on; a cut stalls open connections and refuses new ones until healed,
 * and nothing is lost across it; delay holds bytes; drop resets; the
 * command language refuses what does not parse and says whom it hit; a
 * remote command reaches a control port; addresses and link specs. Issue
 * 23: a control client that never reads its replies is disconnected, and
 * blocks nothing; a line of 1023 bytes or more is refused whole; accept
 * without a descriptor left rests instead of spinning; isolde_proxy_send's
 * contract (no reply buffer, a short one, a line break).
 */
#include "testutil.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include "nemesis/proxy.h"

/* accept4 as the proxy calls it (this definition comes first): counted,
 * with a byte into accept_seen, and failing with EMFILE while no_fds is
 * set, as when the process has no descriptor left. */
int accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags);
static atomic_int accept_calls, no_fds;
static int accept_seen[2] = {-1, -1};

int accept4(int fd, struct sockaddr *sa, socklen_t *len, int flags)
{
    atomic_fetch_add(&accept_calls, 1);
    if (accept_seen[1] >= 0 && write(accept_seen[1], "a", 1) < 0) {} /* full: seen already */
    if (!atomic_load(&no_fds)) return (int)syscall(SYS_accept4, fd, sa, len, flags);
    errno = EMFILE;
    return -1;
}

struct fixture {
    nem_proxy *p;
    int target;      /* the test's listening socket: the link's target */
    int port;        /* where the link listens */
};

static int listener(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    socklen_t n = sizeof sa;
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(fd, 16), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &n), 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* Whether fd has something to read within ms. */
static int readable(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, ms) == 1;
}

static void recv_all(int fd, char *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        assert_true(readable(fd, 5000));
        ssize_t k = recv(fd, buf + got, n - got, 0);
        assert_true(k > 0);
        got += (size_t)k;
    }
}

/* A connection through the proxy: *client the test's side, the target's
 * accepted side returned. */
static int through(struct fixture *f, int *client)
{
    *client = dial(f->port);
    assert_true(readable(f->target, 5000));
    return accept(f->target, NULL, NULL);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    char target[64];
    int tport;
    isolde_error err;
    f->target = listener(&tport);
    snprintf(target, sizeof target, "127.0.0.1:%d", tport);
    assert_int_equal(nem_proxy_new(&f->p, &err), 0);
    assert_int_equal(nem_proxy_link(f->p, "clients", "n1", "127.0.0.1:0", target, &f->port, &err), 0);
    assert_int_equal(nem_proxy_start(f->p, &err), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    nem_proxy_free(f->p);
    close(f->target);
    free(f);
    return 0;
}

/* Run line; its reply must start with want. */
static void command(struct fixture *f, const char *line, const char *want)
{
    iso_buf r = {0};
    nem_proxy_command(f->p, line, &r);
    printf("# %s -> %s\n", line, iso_buf_cstr(&r));
    assert_true(strncmp(iso_buf_cstr(&r), want, strlen(want)) == 0);
    iso_buf_free(&r);
}

static void test_forwards_in_order(void **state)
{
    struct fixture *f = *state;
    int c, s = through(f, &c);
    static char out[1 << 20], in[16384];
    for (size_t i = 0; i < sizeof out; i++) out[i] = (char)(i * 7 + i / 251);
    for (size_t at = 0; at < sizeof out; at += sizeof in) { /* more than PX_BUF, in order */
        assert_int_equal(send(c, out + at, sizeof in, 0), (ssize_t)sizeof in);
        recv_all(s, in, sizeof in);
        assert_memory_equal(in, out + at, sizeof in);
    }
    assert_int_equal(send(s, "back", 4, 0), 4);
    recv_all(c, in, 4);
    assert_memory_equal(in, "back", 4);
    shutdown(c, SHUT_WR); /* the end passes on, and the other way still works */
    assert_true(readable(s, 5000));
    assert_int_equal(recv(s, in, sizeof in, 0), 0);
    assert_int_equal(send(s, "last", 4, 0), 4);
    close(s);
    recv_all(c, in, 4);
    assert_memory_equal(in, "last", 4);
    assert_true(readable(c, 5000));
    assert_int_equal(recv(c, in, sizeof in, 0), 0);
    close(c);
}

static void test_cut_stalls_refuses_heals(void **state)
{
    struct fixture *f = *state;
    int c, s = through(f, &c);
    char buf[16];
    command(f, "cut n1", "ok {\"isolated\":[\"n1\"],\"from\":[\"clients\"],\"links\":1}");
    assert_int_equal(send(c, "held", 4, 0), 4);
    assert_false(readable(s, 300)); /* stalled */
    int d = dial(f->port);          /* a new connection is refused: reset */
    assert_true(readable(d, 5000));
    assert_true(recv(d, buf, sizeof buf, 0) <= 0);
    assert_false(readable(f->target, 100));
    close(d);
    command(f, "status", "ok {\"links\":[{\"from\":\"clients\",\"to\":\"n1\"");
    command(f, "heal", "ok {\"healed\":1}");
    recv_all(s, buf, 4); /* nothing lost */
    assert_memory_equal(buf, "held", 4);
    close(c);
    close(s);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_delay_and_drop(void **state)
{
    struct fixture *f = *state;
    int c, s = through(f, &c);
    char buf[16];
    command(f, "delay 150", "ok {\"delay_ms\":150,\"nodes\":[\"clients\",\"n1\"],\"links\":1}");
    double t0 = now_s();
    assert_int_equal(send(c, "slow", 4, 0), 4);
    recv_all(s, buf, 4);
    assert_true(now_s() - t0 >= 0.14);
    command(f, "delay 0", "ok {\"delay_ms\":0");
    command(f, "drop n1", "ok {\"dropped\":1,\"nodes\":[\"n1\"]}");
    assert_true(readable(c, 5000));
    assert_true(recv(c, buf, sizeof buf, 0) <= 0);
    close(c);
    close(s);
    command(f, "drop", "ok {\"dropped\":0");
}

static void test_bad_commands(void **state)
{
    struct fixture *f = *state;
    const char *bad[] = {"", "cut", "cut n9", "cut n1 nobody", "delay", "delay x", "delay -1", "drop n2",
                         "bogus", "cut n1,", "cut ,n1", "cut n1,,clients"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) command(f, bad[i], "error ");
    command(f, "status", "ok {\"links\":[{\"from\":\"clients\",\"to\":\"n1\",\"listen\":\"127.0.0.1:");
    iso_buf r = {0};
    assert_int_equal(nem_proxy_command(f->p, "status", &r), 0);
    assert_non_null(strstr(iso_buf_cstr(&r), "\"cut\":false,\"delay_ms\":0"));
    iso_buf_free(&r);
}

static void test_remote_control(void **state)
{
    struct fixture *f = *state;
    isolde_error err;
    int port;
    char addr[64];
    nem_proxy *q;
    assert_int_equal(nem_proxy_new(&q, &err), 0);
    assert_int_equal(nem_proxy_control(q, "127.0.0.1:0", &port, &err), 0);
    assert_int_equal(nem_proxy_start(q, &err), 0);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    iso_buf r = {0};
    assert_int_equal(nem_proxy_remote(addr, "heal", &r), 0);
    assert_string_equal(iso_buf_cstr(&r), "ok {\"healed\":0}");
    r.n = 0;
    assert_int_equal(nem_proxy_remote(addr, "cut n1", &r), 0);
    assert_string_equal(iso_buf_cstr(&r), "error no node 'n1' (status lists them)");
    nem_proxy_free(q);
    r.n = 0;
    assert_int_equal(nem_proxy_remote(addr, "heal", &r), -1); /* gone */
    r.n = 0;
    assert_int_equal(nem_proxy_remote("nowhere", "heal", &r), -1);
    iso_buf_free(&r);
    (void)f;
}

static void test_addresses_and_specs(void **state)
{
    (void)state;
    px_addr a;
    assert_int_equal(px_addr_parse("127.0.0.1:80", &a), 0);
    assert_string_equal(a.host, "127.0.0.1");
    assert_int_equal(a.port, 80);
    assert_string_equal(a.netns, "");
    assert_int_equal(px_addr_parse("g1/127.0.0.1:0", &a), 0);
    assert_string_equal(a.netns, "g1");
    assert_int_equal(px_addr_parse("localhost:5", &a), 0);
    const char *bad[] = {"", "127.0.0.1", ":80", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:x", "/1.2.3.4:5",
                         "host.example:5", "1.2.3.4:-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_int_equal(px_addr_parse(bad[i], &a), -1);
    nem_proxy *p;
    isolde_error err;
    int port;
    assert_int_equal(nem_proxy_new(&p, &err), 0);
    assert_int_equal(nem_proxy_link_spec(p, "127.0.0.1:0=127.0.0.1:9", &port, &err), 0);
    assert_int_equal(nem_proxy_link_spec(p, "127.0.0.1:0=127.0.0.1:9", &port, &err), 0);
    assert_int_equal(nem_proxy_link_spec(p, "n1>n2@127.0.0.1:0=127.0.0.1:9", &port, &err), 0);
    assert_string_equal(p->names[p->links[0].to], "n1");
    assert_string_equal(p->names[p->links[1].to], "n2");
    assert_string_equal(p->names[p->links[2].from], "n1");
    const char *bad_specs[] = {"127.0.0.1:0", ">n2@127.0.0.1:0=127.0.0.1:9", "n1@127.0.0.1:0=127.0.0.1:9",
                               "127.0.0.1:0=127.0.0.1:0", "x=y"};
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++)
        assert_int_equal(nem_proxy_link_spec(p, bad_specs[i], &port, &err), -1);
    nem_proxy_free(p);
}

/* A proxy with a link (node n1) and a control port, running; its port. */
static int controlled(nem_proxy **q)
{
    isolde_error err;
    int port, lport;
    assert_int_equal(nem_proxy_new(q, &err), 0);
    assert_int_equal(nem_proxy_link_spec(*q, "127.0.0.1:0=127.0.0.1:9", &lport, &err), 0);
    assert_int_equal(nem_proxy_control(*q, "127.0.0.1:0", &port, &err), 0);
    assert_int_equal(nem_proxy_start(*q, &err), 0);
    return port;
}

/* One reply line from fd into buf (no newline); -1 when none comes. */
static int reply_line(int fd, char *buf, size_t size)
{
    size_t n = 0;
    while (n + 1 < size && readable(fd, 5000) && recv(fd, buf + n, 1, 0) == 1)
        if (buf[n++] == '\n') {
            buf[n - 1] = '\0';
            return 0;
        }
    return -1;
}

static void test_control_line_too_long(void **state)
{
    (void)state;
    nem_proxy *q;
    int fd = dial(controlled(&q));
    static char line[1100];
    char buf[2048];
    memset(line, 'x', 1022); /* 1022 bytes and the newline: a command */
    line[1022] = '\n';
    assert_int_equal(send(fd, line, 1023, 0), 1023);
    assert_int_equal(reply_line(fd, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "error unknown command 'xxxx"));
    memset(line, 'x', 1023); /* 1023 bytes: too long, its tail is not a command */
    memcpy(line + 1023, "heal\nhelp\n", 10);
    assert_int_equal(send(fd, line, 1033, 0), 1033);
    assert_int_equal(reply_line(fd, buf, sizeof buf), 0);
    assert_string_equal(buf, "error line too long");
    assert_int_equal(reply_line(fd, buf, sizeof buf), 0);
    assert_true(strncmp(buf, "ok commands:", 12) == 0);
    close(fd);
    nem_proxy_free(q);
}

/* Send "status\n" lines to fd, never reading a reply, until the proxy
 * stops taking them (2 s without room: it is stuck) or drops the
 * connection (or 64 MiB of them, ten times what the kernel holds). */
static void flood(int fd)
{
    static char lines[7 * 1000];
    for (size_t i = 0; i < sizeof lines; i += 7) memcpy(lines + i, "status\n", 7);
    for (long sent = 0; sent < 64L << 20;) {
        ssize_t k = send(fd, lines, sizeof lines, MSG_DONTWAIT | MSG_NOSIGNAL);
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        if (k < 0 && (errno != EAGAIN || poll(&p, 1, 2000) != 1)) return;
        sent += k > 0 ? k : 0;
    }
}

static void test_control_client_that_never_reads(void **state)
{
    (void)state;
    nem_proxy *q;
    int port = controlled(&q), rude = dial(port);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    flood(rude);
    iso_buf r = {0};
    int rc = nem_proxy_remote(addr, "heal", &r); /* another client is answered */
    shutdown(rude, SHUT_WR); /* (after its commands: POLLHUP once the proxy closes too) */
    struct pollfd p = {.fd = rude, .events = 0};
    int dropped = poll(&p, 1, 5000) == 1; /* and the rude one disconnected */
    close(rude);
    printf("# heal -> %s (%d), dropped %d\n", iso_buf_cstr(&r), rc, dropped);
    assert_int_equal(rc, 0);
    assert_string_equal(iso_buf_cstr(&r), "ok {\"healed\":0}");
    assert_true(dropped);
    iso_buf_free(&r);
    nem_proxy_free(q);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_accept_without_descriptors_rests(void **state)
{
    struct fixture *f = *state;
    char buf[8];
    assert_int_equal(pipe(accept_seen), 0);
    fcntl(accept_seen[1], F_SETFL, O_NONBLOCK); /* (a spinning proxy must not block on it) */
    atomic_store(&no_fds, 1);
    int c = dial(f->port); /* pending: the link's listener stays readable */
    assert_true(readable(accept_seen[0], 5000));
    atomic_store(&accept_calls, 0);
    int64_t t0 = now_ms();
    poll(NULL, 0, 500); /* what the proxy does meanwhile */
    int calls = atomic_load(&accept_calls);
    int64_t took = now_ms() - t0;
    atomic_store(&no_fds, 0);
    printf("# %d accepts in %lld ms\n", calls, (long long)took);
    assert_true(calls <= took / PX_ACCEPT_REST + 2); /* once a rest, not a spin */
    int s = accept(f->target, NULL, NULL); /* and then the connection goes through */
    assert_int_equal(send(c, "late", 4, 0), 4);
    recv_all(s, buf, 4);
    assert_memory_equal(buf, "late", 4);
    close(s);
    close(c);
    close(accept_seen[1]);
    accept_seen[1] = -1;
    close(accept_seen[0]);
}

static void test_send_contract(void **state)
{
    (void)state;
    nem_proxy *q;
    char addr[64], small[8], stale[8] = "STALE", reply[256];
    isolde_error err;
    snprintf(addr, sizeof addr, "127.0.0.1:%d", controlled(&q));
    assert_int_equal(isolde_proxy_send(addr, "cut n9", small, sizeof small, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(small, "error n"); /* the reply cut to the buffer, */
    assert_string_equal(err.msg, "error no node 'n9' (status lists them)"); /* the error not */
    assert_int_equal(isolde_proxy_send(addr, "cut n9", stale, 0, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(err.msg, "error no node 'n9' (status lists them)");
    assert_string_equal(stale, "STALE");
    assert_int_equal(isolde_proxy_send(addr, "heal\ncut n1", reply, sizeof reply, &err), ISOLDE_ERR_USAGE);
    assert_string_equal(reply, "");
    assert_non_null(strstr(err.msg, "line break"));
    assert_int_equal(isolde_proxy_send(addr, "status", reply, sizeof reply, &err), ISOLDE_OK);
    assert_non_null(strstr(reply, "\"cut\":false")); /* the second line never ran */
    assert_int_equal(isolde_proxy_send(addr, "heal", NULL, 0, &err), ISOLDE_OK);
    assert_int_equal(isolde_proxy_send(addr, "cut n9", NULL, 0, NULL), ISOLDE_ERR_USAGE);
    nem_proxy_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_forwards_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cut_stalls_refuses_heals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_delay_and_drop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_commands, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remote_control, setup, teardown),
        cmocka_unit_test(test_addresses_and_specs),
        cmocka_unit_test(test_control_line_too_long),
        cmocka_unit_test(test_control_client_that_never_reads),
        cmocka_unit_test_setup_teardown(test_accept_without_descriptors_rests, setup, teardown),
        cmocka_unit_test(test_send_contract),
    };
    signal(SIGPIPE, SIG_IGN); /* (a write to a client gone must fail, not kill) */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
