/*
 * nemesis/net.c -- the faults made through the fault proxy (proxy.h):
 *
 *   partition  with the cluster's own traffic through a proxy (--peer, or
 *              another proxy at --proxy-control): one node cut off from
 *              the others, or a minority from a majority; without it, the
 *              clients cut off from one node. start-partition and
 *              stop-partition, the value {"isolated":[...],"from":[...]}.
 *   latency    every link's bytes held --latency MS (start-latency,
 *              stop-latency).
 *   drop       one node's open connections closed mid-stream, with a
 *              reset (start-drop; stop-drop heals nothing).
 *
 * Each fault is a command of the proxy's language, sent to the run's
 * proxy and to the other one when there is one; the value records whom
 * it hit and what each proxy answered. The invariant: a stop undoes what
 * its start did, on both proxies, whatever either answered.
 */
#include <stdio.h>
#include <string.h>
#include "core/value.h"
#include "nemesis/nemesis.h"
#include "nemesis/proxy.h"

static uint32_t draw(nem_ctx *n, uint32_t below)
{
    uint64_t z = (n->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % below);
}

static int peers(const nem_ctx *n) { return n->o->faults.n_peers > 0 || (n->o->faults.proxy_control && *n->o->faults.proxy_control); }

/* ,"NAME":REPLY for one proxy's answer to line; -1 when it refused. */
static int send_one(nem_ctx *n, int remote, const char *name, const char *line, iso_buf *value)
{
    iso_buf r = {0};
    int rc = remote ? nem_proxy_remote(n->o->faults.proxy_control, line, &r) : 0;
    if (!remote) nem_proxy_command(n->proxy, line, &r);
    const char *s = iso_buf_cstr(&r);
    int ok = rc == 0 && strncmp(s, "ok ", 3) == 0;
    iso_buf_printf(value, ",\"%s\":", name);
    if (ok) iso_buf_puts(value, s + 3);
    else iso_json_string(value, s, strlen(s));
    iso_buf_free(&r);
    return ok ? 0 : -1;
}

/* line to the run's proxy and the other one; -1 when either refused. */
static int send_all(nem_ctx *n, const char *line, iso_buf *value)
{
    int rc = n->proxy ? send_one(n, 0, "proxy", line, value) : 0;
    if (n->o->faults.proxy_control && *n->o->faults.proxy_control) rc |= send_one(n, 1, "peer_proxy", line, value);
    return rc;
}

static void put_nodes(iso_buf *b, char *line, size_t cap, uint32_t set, int n_nodes)
{
    iso_buf_puts(b, "[");
    size_t k = strlen(line);
    for (int i = 0, first = 1; i < n_nodes; i++) {
        if (!((set >> i) & 1u)) continue;
        iso_buf_printf(b, "%s\"n%d\"", first ? "" : ",", i + 1);
        k += (size_t)snprintf(line + k, cap - k, "%sn%d", first ? "" : ",", i + 1);
        first = 0;
    }
    iso_buf_puts(b, "]");
    snprintf(line + k, cap - k, " ");
}

/* Which nodes a partition isolates: one, or a random minority. */
static uint32_t grudge(nem_ctx *n)
{
    int k = n->n_nodes;
    if (k < 3 || draw(n, 2) == 0) return 1u << draw(n, (uint32_t)k);
    uint32_t set = 0;
    for (int size = (k - 1) / 2; size > 0;) {
        uint32_t b = 1u << draw(n, (uint32_t)k);
        if (!(set & b)) set |= b, size--;
    }
    return set;
}

static int check_nodes(const isolde_run_opts *o, isolde_error *err)
{
    if (o->n_urls < 1 || o->n_urls > 31)
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "proxy faults need 1 to 31 --url (the nodes)");
    px_addr a;
    if (o->faults.proxy_control && *o->faults.proxy_control && (px_addr_parse(o->faults.proxy_control, &a) < 0 || a.netns[0]))
        return iso_fail(err, ISOLDE_ERR_USAGE, NULL, 0, 0, "--proxy-control takes HOST:PORT, not '%s'", o->faults.proxy_control);
    return 0;
}

static int partition_start(nem_ctx *n, iso_buf *value)
{
    char line[256] = "cut ";
    uint32_t a = grudge(n), all = (n->n_nodes >= 32 ? ~0u : (1u << n->n_nodes) - 1);
    iso_buf_puts(value, "{\"isolated\":");
    put_nodes(value, line, sizeof line, a, n->n_nodes);
    iso_buf_puts(value, ",\"from\":");
    if (peers(n) && n->n_nodes > 1) {
        put_nodes(value, line, sizeof line, all & ~a, n->n_nodes);
    } else {
        iso_buf_puts(value, "[\"clients\"]");
        snprintf(line + strlen(line), sizeof line - strlen(line), "clients");
    }
    int rc = send_all(n, line, value);
    iso_buf_puts(value, "}");
    return rc;
}

/* Heal (stop-partition, and what a refused start left). */
static int heal(nem_ctx *n, const char *line, iso_buf *value)
{
    iso_buf_puts(value, "{\"healed\":true");
    int rc = send_all(n, line, value);
    iso_buf_puts(value, "}");
    return rc;
}

static int partition_stop(nem_ctx *n, iso_buf *value) { return heal(n, "heal", value); }

static int latency_start(nem_ctx *n, iso_buf *value)
{
    char line[64];
    long ms = n->o->faults.latency_ms > 0 ? n->o->faults.latency_ms : 100;
    snprintf(line, sizeof line, "delay %ld", ms);
    iso_buf_printf(value, "{\"delay_ms\":%ld", ms);
    int rc = send_all(n, line, value);
    iso_buf_puts(value, "}");
    return rc;
}

static int latency_stop(nem_ctx *n, iso_buf *value) { return heal(n, "delay 0", value); }

static int drop_start(nem_ctx *n, iso_buf *value)
{
    char line[64];
    int node = (int)draw(n, (uint32_t)n->n_nodes) + 1;
    snprintf(line, sizeof line, "drop n%d", node);
    iso_buf_printf(value, "{\"node\":\"n%d\"", node);
    int rc = send_all(n, line, value);
    iso_buf_puts(value, "}");
    return rc;
}

static int drop_stop(nem_ctx *n, iso_buf *value)
{
    (void)n;
    iso_buf_puts(value, "null");
    return 0;
}

const nem_kind nem_partition = {"partition", "start-partition", "stop-partition", check_nodes, partition_start,
                                partition_stop};
const nem_kind nem_latency = {"latency", "start-latency", "stop-latency", check_nodes, latency_start, latency_stop};
const nem_kind nem_drop = {"drop", "start-drop", "stop-drop", check_nodes, drop_start, drop_stop};
