/*
 * nemesis/proxy_cmd.c -- the fault proxy's command language, one command
 * a line, one reply a line ("ok JSON" or "error WHY"), the same for a
 * person at `isolde proxy`'s standard input, a script on its control port
 * and the nemesis kinds of a run:
 *
 *   cut A[,B...] [C[,D...]]   partition: links between the groups stall,
 *                             new connections are refused (no second
 *                             group: every other node)
 *   heal                      every cut healed
 *   delay MS [A[,B...]]       bytes on the links of those nodes (all)
 *                             held MS ms; delay 0 ends it
 *   drop [A[,B...]]           close those nodes' (all) open connections
 *   status                    the links, their state and their counts
 *   help, quit
 *
 * Nodes are named by the links (`clients` for clients). The invariant: a
 * command changes nothing unless it parses whole, and its reply says
 * whom it hit, as the history records it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "core/value.h"
#include "nemesis/proxy.h"

static int find_node(const nem_proxy *p, const char *name, size_t n)
{
    for (int i = 0; i < p->n_names; i++)
        if (strlen(p->names[i]) == n && strncmp(p->names[i], name, n) == 0) return i;
    return -1;
}

int nem_proxy_node(nem_proxy *p, const char *name)
{
    int i = find_node(p, name, strlen(name));
    if (i >= 0 || p->n_names == PX_NODES) return i;
    p->names[p->n_names] = iso_xstrdup(name);
    iso_adopt(p->names[p->n_names], p);
    return p->n_names++;
}

int px_addr_parse(const char *s, px_addr *a)
{
    memset(a, 0, sizeof *a);
    const char *slash = strchr(s, '/'), *hp = slash ? slash + 1 : s, *colon = strrchr(hp, ':');
    if (slash && ((size_t)(slash - s) >= sizeof a->netns || slash == s)) return -1;
    if (!colon || colon == hp || (size_t)(colon - hp) >= sizeof a->host) return -1;
    if (slash) memcpy(a->netns, s, (size_t)(slash - s));
    memcpy(a->host, hp, (size_t)(colon - hp));
    char *end;
    long port = strtol(colon + 1, &end, 10);
    struct in_addr in;
    if (!colon[1] || *end || port < 0 || port > 65535) return -1;
    if (strcmp(a->host, "localhost") != 0 && inet_pton(AF_INET, a->host, &in) != 1) return -1;
    a->port = (int)port;
    return 0;
}

int nem_proxy_link_spec(nem_proxy *p, const char *spec, int *port, isolde_error *err)
{
    char buf[512], from[64] = "clients", to[64];
    snprintf(buf, sizeof buf, "%s", spec);
    char *at = strchr(buf, '@'), *addrs = at ? at + 1 : buf, *eq = strchr(addrs, '=');
    if (!eq) return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "not a link [FROM>TO@]LISTEN=TARGET: '%s'", spec);
    *eq = '\0';
    if (at) {
        *at = '\0';
        char *gt = strchr(buf, '>');
        if (!gt || gt == buf || !gt[1] || strlen(buf) >= sizeof from + sizeof to)
            return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "not FROM>TO before '@' in '%s'", spec);
        *gt = '\0';
        snprintf(from, sizeof from, "%.63s", buf);
        snprintf(to, sizeof to, "%.63s", gt + 1);
    } else {
        int k = 1;
        pthread_mutex_lock(&p->mu);
        for (size_t i = 0; i < p->n_links; i++) k += p->links[i].from == 0;
        pthread_mutex_unlock(&p->mu);
        snprintf(to, sizeof to, "n%d", k);
    }
    return nem_proxy_link(p, from, to, addrs, eq + 1, port, err);
}

int px_link_cut(const nem_proxy *p, const px_link *l) { return (p->cut[l->from] >> l->to) & 1u; }

/* The nodes a comma list names, as a bit set; 0 (with why) when one is
 * unknown. An absent list (NULL) is every node. */
static uint32_t group(const nem_proxy *p, const char *s, iso_buf *why)
{
    if (!s) return p->n_names >= 32 ? ~0u : (1u << p->n_names) - 1;
    uint32_t set = 0;
    size_t len = strlen(s);
    if (!len || s[len - 1] == ',') return iso_buf_puts(why, "error an empty node name"), 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        int i = n ? find_node(p, s, n) : -1;
        if (i < 0) {
            iso_buf_printf(why, "error no node '%.*s' (status lists them)", (int)n, s);
            return 0;
        }
        set |= 1u << i;
        s += n + (s[n] == ',');
    }
    return set;
}

static void names_json(const nem_proxy *p, iso_buf *b, uint32_t set)
{
    iso_buf_puts(b, "[");
    for (int i = 0, first = 1; i < p->n_names; i++) {
        if (!((set >> i) & 1u)) continue;
        if (!first) iso_buf_puts(b, ",");
        iso_json_string(b, p->names[i], strlen(p->names[i]));
        first = 0;
    }
    iso_buf_puts(b, "]");
}

static long links_cut(const nem_proxy *p)
{
    long n = 0;
    for (size_t i = 0; i < p->n_links; i++) n += px_link_cut(p, &p->links[i]);
    return n;
}

static int cmd_cut(nem_proxy *p, char **arg, iso_buf *r)
{
    if (!arg[0]) return iso_buf_puts(r, "error cut needs a group (cut n1 n2,n3)"), 0;
    uint32_t a = group(p, arg[0], r);
    if (!a) return 0;
    uint32_t b = arg[1] ? group(p, arg[1], r) : group(p, NULL, r) & ~a;
    if (!b) return r->n ? 0 : (iso_buf_puts(r, "error an empty group"), 0);
    for (int i = 0; i < p->n_names; i++)
        for (int j = 0; j < p->n_names; j++)
            if ((((a >> i) & (b >> j)) | ((b >> i) & (a >> j))) & 1u) p->cut[i] |= 1u << j;
    iso_buf_puts(r, "ok {\"isolated\":");
    names_json(p, r, a);
    iso_buf_puts(r, ",\"from\":");
    names_json(p, r, b);
    iso_buf_printf(r, ",\"links\":%ld}", links_cut(p));
    return 0;
}

static int cmd_heal(nem_proxy *p, char **arg, iso_buf *r)
{
    (void)arg;
    long n = links_cut(p);
    memset(p->cut, 0, sizeof p->cut);
    iso_buf_printf(r, "ok {\"healed\":%ld}", n);
    return 0;
}

static int touches(const px_link *l, uint32_t set) { return (((set >> l->from) | (set >> l->to)) & 1u) != 0; }

static int cmd_delay(nem_proxy *p, char **arg, iso_buf *r)
{
    char *end = NULL;
    long ms = arg[0] ? strtol(arg[0], &end, 10) : -1;
    if (!arg[0] || *end || ms < 0 || ms > 600000) return iso_buf_puts(r, "error delay needs MS, 0..600000"), 0;
    uint32_t set = group(p, arg[1], r);
    if (!set) return 0;
    long n = 0;
    for (size_t i = 0; i < p->n_links; i++)
        if (touches(&p->links[i], set)) p->links[i].delay_ms = ms, n++;
    iso_buf_printf(r, "ok {\"delay_ms\":%ld,\"nodes\":", ms);
    names_json(p, r, set);
    iso_buf_printf(r, ",\"links\":%ld}", n);
    return 0;
}

static int cmd_drop(nem_proxy *p, char **arg, iso_buf *r)
{
    uint32_t set = group(p, arg[0], r);
    if (!set) return 0;
    long n = 0;
    for (size_t i = 0; i < p->n_conns; i++)
        if (touches(&p->links[p->conns[i]->link], set) && !p->conns[i]->drop) p->conns[i]->drop = 1, n++;
    iso_buf_puts(r, "ok {\"dropped\":");
    iso_buf_int(r, n);
    iso_buf_puts(r, ",\"nodes\":");
    names_json(p, r, set);
    iso_buf_puts(r, "}");
    return 0;
}

static void addr_json(iso_buf *r, const px_addr *a)
{
    char s[160];
    snprintf(s, sizeof s, "%s%s%s:%d", a->netns, a->netns[0] ? "/" : "", a->host, a->port);
    iso_json_string(r, s, strlen(s));
}

static int cmd_status(nem_proxy *p, char **arg, iso_buf *r)
{
    (void)arg;
    iso_buf_puts(r, "ok {\"links\":[");
    for (size_t i = 0; i < p->n_links; i++) {
        const px_link *l = &p->links[i];
        long open = 0;
        for (size_t k = 0; k < p->n_conns; k++) open += p->conns[k]->link == (int)i;
        iso_buf_puts(r, i ? ",{\"from\":" : "{\"from\":");
        iso_json_string(r, p->names[l->from], strlen(p->names[l->from]));
        iso_buf_puts(r, ",\"to\":");
        iso_json_string(r, p->names[l->to], strlen(p->names[l->to]));
        iso_buf_puts(r, ",\"listen\":");
        addr_json(r, &l->listen);
        iso_buf_puts(r, ",\"target\":");
        addr_json(r, &l->target);
        iso_buf_printf(r, ",\"cut\":%s,\"delay_ms\":%ld,\"open\":%ld,\"accepted\":%ld,\"refused\":%ld}",
                       px_link_cut(p, l) ? "true" : "false", l->delay_ms, open, l->accepted, l->refused);
    }
    iso_buf_puts(r, "]}");
    return 0;
}

static int cmd_help(nem_proxy *p, char **arg, iso_buf *r)
{
    (void)p, (void)arg;
    iso_buf_puts(r, "ok commands: cut A[,B] [C[,D]], heal, delay MS [NODES], drop [NODES], status, quit");
    return 0;
}

static int cmd_quit(nem_proxy *p, char **arg, iso_buf *r)
{
    (void)p, (void)arg;
    iso_buf_puts(r, "ok bye");
    return 1;
}

static const struct {
    const char *name;
    int (*run)(nem_proxy *p, char **arg, iso_buf *r);
} commands[] = {{"cut", cmd_cut},     {"heal", cmd_heal}, {"delay", cmd_delay}, {"drop", cmd_drop},
                {"status", cmd_status}, {"help", cmd_help}, {"quit", cmd_quit}};

int nem_proxy_command_locked(nem_proxy *p, const char *line, iso_buf *reply)
{
    char buf[1024], *word[4] = {NULL, NULL, NULL, NULL}, *save = NULL;
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *w = strtok_r(buf, " \t\r\n", &save); w && n < 4; w = strtok_r(NULL, " \t\r\n", &save)) word[n++] = w;
    if (!word[0]) return iso_buf_puts(reply, "error an empty command (help lists them)"), 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, word[0]) == 0) {
            int quit = commands[i].run(p, word + 1, reply);
            nem_proxy_wake(p);
            return quit;
        }
    iso_buf_printf(reply, "error unknown command '%.40s' (help lists them)", word[0]);
    return 0;
}

int nem_proxy_command(nem_proxy *p, const char *line, iso_buf *reply)
{
    pthread_mutex_lock(&p->mu);
    int quit = nem_proxy_command_locked(p, line, reply);
    if (quit) p->quit = 1;
    pthread_mutex_unlock(&p->mu);
    return quit;
}

static int remote_fail(iso_buf *reply, const char *addr, const char *what)
{
    iso_buf_printf(reply, "error %s the proxy at %s: %s", what, addr, strerror(errno));
    return -1;
}

int nem_proxy_remote(const char *addr, const char *line, iso_buf *reply)
{
    px_addr a;
    if (px_addr_parse(addr, &a) < 0 || a.netns[0]) return iso_buf_printf(reply, "error not HOST:PORT: %s", addr), -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)a.port)};
    inet_pton(AF_INET, strcmp(a.host, "localhost") == 0 ? "127.0.0.1" : a.host, &sa.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct timeval tv = {5, 0};
    if (fd < 0) return remote_fail(reply, addr, "cannot reach");
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || send(fd, line, strlen(line), MSG_NOSIGNAL) < 0 ||
        send(fd, "\n", 1, MSG_NOSIGNAL) < 0) {
        remote_fail(reply, addr, "cannot reach");
        close(fd);
        return -1;
    }
    char c;
    ssize_t n;
    size_t start = reply->n;
    while ((n = read(fd, &c, 1)) == 1 && c != '\n') iso_buf_put(reply, &c, 1);
    if (n < 0) remote_fail(reply, addr, "no reply from");
    else if (reply->n == start) iso_buf_printf(reply, "error no reply from the proxy at %s", addr);
    close(fd);
    return n < 0 || reply->n == start ? -1 : 0;
}
