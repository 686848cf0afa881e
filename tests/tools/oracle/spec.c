/*
 * spec.c -- the oracle's textbook cases (tests/data/oracle/textbook.txt):
 * named small histories written by hand, each with the verdicts the
 * literature gives it. The format, one item per line ('#' starts a
 * comment):
 *
 *   case NAME la|rw [seq]      a case; seq: each transaction completes
 *                              before the next one starts (default: all
 *                              invoked first, then completed in order)
 *   expect MODEL=valid|invalid ...
 *   t PROCESS ok|fail|info [@INV-CMP] MOP...
 *                              MOP: axV append V to key x, wxV write V,
 *                              rx=1,2 (list) rx= (empty list) rx=V rx=-
 *                              (nil) rx? (unknown); keys are one letter
 *   end
 *
 * @INV-CMP gives a transaction's invocation and completion positions (all
 * transactions then give them).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

struct spec {
    char name[64];
    int layout; /* 0 concurrent, 1 sequential, 2 explicit */
    struct or_hist h;
    char expect[32][80];
    int nexpect;
    int line;
};

static int spec_key(struct or_hist *h, char c)
{
    for (int k = 0; k < h->nkeys; k++)
        if (h->key[k][0] == c) return k;
    if (h->nkeys == OR_MAXK) return -1;
    h->key[h->nkeys][0] = c, h->key[h->nkeys][1] = 0;
    return h->nkeys++;
}

static bool spec_read(struct or_hist *h, const char *s, struct or_mop *m)
{
    m->f = OR_READ;
    if (s[0] == '?') return m->n = -1, true;
    if (s[0] != '=') return false;
    s++;
    if (h->wl == OR_RW) {
        m->n = 1, m->rd[0] = *s == '-' ? OR_NIL : atoi(s);
        return true;
    }
    m->n = 0;
    for (char *end; *s && m->n < OR_MAXL; s = *end ? end + 1 : end) {
        m->rd[m->n++] = (int)strtol(s, &end, 10);
        if (end == s) return false;
    }
    return true;
}

static bool spec_mop(struct or_hist *h, const char *s, struct or_mop *m)
{
    memset(m, 0, sizeof *m);
    m->n = -1;
    if (!s[0] || (m->key = spec_key(h, s[1])) < 0) return false;
    if (s[0] == 'r') return spec_read(h, s + 2, m);
    m->f = s[0] == 'a' ? OR_APPEND : s[0] == 'w' ? OR_WRITE : -1;
    m->val = atoi(s + 2);
    return (m->f == OR_APPEND) == (h->wl == OR_LA) && s[0] != 'r' && m->f >= 0;
}

static bool spec_txn(struct spec *sp, char *rest)
{
    struct or_hist *h = &sp->h;
    if (h->n == OR_MAXT) return false;
    struct or_txn *t = &h->t[h->n++];
    char *save = NULL, *tok = strtok_r(rest, " \t", &save);
    memset(t, 0, sizeof *t);
    if (!tok) return false;
    t->proc = atoi(tok);
    tok = strtok_r(NULL, " \t", &save);
    if (!tok) return false;
    t->type = !strcmp(tok, "ok") ? OR_OK : !strcmp(tok, "fail") ? OR_FAIL : OR_INFO;
    while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
        if (tok[0] == '@') {
            if (sscanf(tok, "@%d-%d", &t->inv, &t->cmp) != 2) return false;
            sp->layout = 2;
        } else if (t->nm == OR_MAXM || !spec_mop(h, tok, &t->m[t->nm++])) {
            return false;
        }
    }
    return true;
}

static void layout(struct spec *sp)
{
    struct or_hist *h = &sp->h;
    for (int i = 0; i < h->n && sp->layout != 2; i++) {
        h->t[i].inv = sp->layout ? 2 * i : i;
        h->t[i].cmp = sp->layout ? 2 * i + 1 : h->n + i;
    }
    for (int i = 0; i < h->n; i++) /* an :info transaction never completed */
        for (int j = 0; j < h->t[i].nm; j++)
            if (h->t[i].type != OR_OK && h->t[i].m[j].f == OR_READ) h->t[i].m[j].n = -1;
}

static int run_case(struct spec *sp, bool verbose)
{
    int bad = 0;
    layout(sp);
    for (int e = 0; e < sp->nexpect; e++) {
        char model[64], want[16];
        if (sscanf(sp->expect[e], "%63[^=]=%15s", model, want) != 2 || !or_model_find(model)) {
            printf("FAIL %s: bad expectation '%s'\n", sp->name, sp->expect[e]);
            bad++;
            continue;
        }
        struct or_witness w;
        bool got = or_decide(&sp->h, or_model_find(model), &w);
        if (got == !strcmp(want, "valid")) {
            if (verbose) printf("ok %s: %s %s\n", sp->name, model, want);
            continue;
        }
        printf("FAIL %s: %s: oracle says %s, expected %s\n", sp->name, model, got ? "valid" : "invalid", want);
        if (got) or_print_witness(&sp->h, &w, stdout);
        bad++;
    }
    return bad;
}

struct walk {
    const char *only;
    bool list, verbose, emit;
    FILE *out;
    int failures, found;
};

static void finish_case(struct walk *wk, struct spec *sp)
{
    if (wk->only && strcmp(wk->only, sp->name)) return;
    wk->found++;
    if (wk->list) printf("%s\n", sp->name);
    else if (wk->emit) layout(sp), or_write_jsonl(&sp->h, wk->out);
    else wk->failures += run_case(sp, wk->verbose);
}

static bool spec_line(struct walk *wk, struct spec *sp, char *s, bool *in)
{
    char word[16] = "", wl[8] = "", mode[8] = "";
    int used = 0;
    if (sscanf(s, "%15s%n", word, &used) != 1 || word[0] == '#') return true;
    char *rest = s + used;
    if (!strcmp(word, "case")) {
        memset(sp, 0, sizeof *sp);
        if (sscanf(rest, "%63s %7s %7s", sp->name, wl, mode) < 2) return false;
        sp->h.wl = !strcmp(wl, "rw") ? OR_RW : OR_LA, sp->layout = !strcmp(mode, "seq");
        return *in = true;
    }
    if (!*in) return false;
    if (!strcmp(word, "end")) return finish_case(wk, sp), !(*in = false);
    if (!strcmp(word, "t")) return spec_txn(sp, rest);
    if (strcmp(word, "expect")) return false;
    for (char *save = NULL, *tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
        if (sp->nexpect < 32) snprintf(sp->expect[sp->nexpect++], sizeof sp->expect[0], "%s", tok);
    return true;
}

static int walk_file(const char *path, struct walk *wk)
{
    FILE *f = fopen(path, "r");
    if (!f) return fprintf(stderr, "%s: cannot open\n", path), -1;
    static struct spec sp;
    char line[1024];
    bool in = false;
    for (int n = 1; fgets(line, sizeof line, f); n++) {
        line[strcspn(line, "\r\n")] = 0;
        if (spec_line(wk, &sp, line, &in)) continue;
        fprintf(stderr, "%s:%d: cannot parse this line\n", path, n);
        fclose(f);
        return -1;
    }
    fclose(f);
    if (wk->only && !wk->found) return fprintf(stderr, "%s: no case %s\n", path, wk->only), -1;
    return wk->failures;
}

int or_cases(const char *path, const char *only, bool list, bool verbose)
{
    struct walk wk = {only, list, verbose, false, NULL, 0, 0};
    return walk_file(path, &wk);
}

bool or_case_jsonl(const char *path, const char *name, FILE *out)
{
    struct walk wk = {name, false, false, true, out, 0, 0};
    return walk_file(path, &wk) == 0;
}
