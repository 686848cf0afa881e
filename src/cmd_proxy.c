/*
 * cmd_proxy.c -- `isolde proxy --link SPEC... [--control HOST:PORT]`: the
 * fault proxy as a program of its own (isolde_proxy_*). Each link listens
 * and forwards; the proxy prints where each listens ("link SPEC port P",
 * one line each, then "control HOST:PORT" and "ready"), then takes
 * commands (cut, heal, delay, drop, status, quit) from standard input and
 * from connections to its control port, one reply line each, until quit,
 * SIGINT or SIGTERM. `isolde proxy --send HOST:PORT COMMAND...` sends one
 * command to a running proxy and prints its reply (exit 0 when it says
 * ok, 1 when it refused, 3 when it cannot be reached).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define MAX_LINKS 256

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct proxy_cli {
    const char *links[MAX_LINKS];
    size_t n_links;
    const char *control, *send;
    int no_stdin;
};

static int add_link(void *at, const char *v)
{
    struct proxy_cli *c = at;
    if (c->n_links == MAX_LINKS) return fprintf(stderr, "isolde proxy: at most %d links\n", MAX_LINKS), -1;
    c->links[c->n_links++] = v;
    return 0;
}

#define P(f) offsetof(struct proxy_cli, f)
static const cli_opt proxy_opts[] = {
    {0, "link", CLI_CALL, 0, "[FROM>TO@]L=T",
     "listen at L ([NETNS/]HOST:PORT, port 0: any), forward to T; the link goes from node FROM (clients) to "
     "node TO (nK for the K-th such link)", 0, 0, add_link, 0},
    {0, "listen", CLI_CALL, 0, "L=T", NULL, 0, 0, add_link, 0},
    {0, "control", CLI_STRING, P(control), "HOST:PORT", "take commands on TCP connections here too", 0, 0, NULL, 0},
    {0, "no-stdin", CLI_FLAG, P(no_stdin), NULL, "take no commands from standard input", 0, 0, NULL, 1},
    {0, "send", CLI_STRING, P(send), "HOST:PORT", "send the command given as arguments to a running proxy", 0, 0,
     NULL, 0},
};
#undef P

void cmd_proxy_help(FILE *out, cli_style st)
{
    static struct proxy_cli c;
    cli_table t = {"proxy options", proxy_opts, sizeof proxy_opts / sizeof proxy_opts[0], &c};
    cli_doc_usage(out, st, "isolde proxy --link [FROM>TO@]LISTEN=TARGET... [--control HOST:PORT]\n"
                           "isolde proxy --send HOST:PORT COMMAND...");
    cli_doc_text(out, st, "A TCP proxy with faults: every link forwards the connections made to it, and\n"
                          "commands (standard input, the control port, --send) put faults on links\n"
                          "by the nodes they join. It prints 'link SPEC port P' for each link, then 'ready'.\n"
                          "A command is one line of at most 1022 bytes (longer: 'error line too long');\n"
                          "a control client that leaves 64 KiB of replies unread is disconnected.\n");
    cli_help(out, st, &t, 1);
    cli_doc_heading(out, st, "commands");
    cli_doc_item(out, st, "cut A[,B] [C[,D]]", "partition: links between the groups (or A and every other node) "
                                               "stall, new connections are refused");
    cli_doc_item(out, st, "heal", "every cut healed");
    cli_doc_item(out, st, "delay MS [NODES]", "hold the bytes of those nodes' links (all) MS ms; delay 0 ends it");
    cli_doc_item(out, st, "drop [NODES]", "close those nodes' (all) open connections, with a reset");
    cli_doc_item(out, st, "status", "the links as JSON: nodes, addresses, cut, delay, open connections");
    cli_doc_item(out, st, "quit", "stop the proxy");
}

/* --send: the arguments as one command line. */
static int send_command(const char *addr, const char **words, int n)
{
    char line[1024] = "", reply[4096];
    for (int i = 0; i < n; i++)
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " " : "", words[i]);
    isolde_error err;
    isolde_status s = isolde_proxy_send(addr, line, reply, sizeof reply, &err);
    if (s == ISOLDE_ERR_IO || !reply[0]) return cli_print_error(&err), EXIT_ERROR; /* no answer, or not sent */
    printf("%s\n", reply);
    return s == ISOLDE_OK ? 0 : 1;
}

static int serve(struct proxy_cli *c)
{
    isolde_proxy *p;
    isolde_error err;
    int port;
    if (isolde_proxy_new(&p, &err) != ISOLDE_OK) return cli_print_error(&err), EXIT_ERROR;
    for (size_t i = 0; i < c->n_links; i++) {
        if (isolde_proxy_link(p, c->links[i], &port, &err) != ISOLDE_OK)
            return cli_print_error(&err), isolde_proxy_free(p), EXIT_ERROR;
        printf("link %s port %d\n", c->links[i], port);
    }
    if (c->control && isolde_proxy_control(p, c->control, &port, &err) != ISOLDE_OK)
        return cli_print_error(&err), isolde_proxy_free(p), EXIT_ERROR;
    if (c->control) printf("control 127.0.0.1:%d\n", port);
    printf("ready\n");
    if (cli_stdout_flushed()) return isolde_proxy_free(p), EXIT_ERROR;
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    isolde_status s = isolde_proxy_run(p, c->no_stdin ? -1 : STDIN_FILENO, STDOUT_FILENO, &stop_flag, &err);
    isolde_proxy_free(p);
    if (s != ISOLDE_OK) return cli_print_error(&err), EXIT_ERROR;
    return 0;
}

int cmd_proxy(int argc, char **argv)
{
    static struct proxy_cli c;
    memset(&c, 0, sizeof c);
    cli_table t = {"proxy options", proxy_opts, sizeof proxy_opts / sizeof proxy_opts[0], &c};
    const char **pos = malloc((size_t)argc * sizeof *pos);
    int n_pos = 0, rc = cli_parse(argc, argv, "proxy", &t, 1, NULL, NULL, pos, &n_pos);
    if (rc == CLI_HELP) cmd_proxy_help(stdout, CLI_TEXT);
    if (rc == CLI_VERSION) cli_version();
    int status = rc < 0 ? EXIT_ERROR : 0;
    const char *bad = NULL;
    if (rc == 0 && c.send && !n_pos) bad = "--send needs a command";
    else if (rc == 0 && !c.send && n_pos) bad = "unexpected arguments (isolde proxy --help)";
    else if (rc == 0 && !c.send && !c.n_links) bad = "no --link (isolde proxy --help)";
    if (bad) status = EXIT_ERROR, fprintf(stderr, "isolde proxy: %s\n", bad);
    else if (rc == 0 && c.send) status = send_command(c.send, pos, n_pos);
    else if (rc == 0) status = serve(&c);
    free(pos);
    return status;
}
