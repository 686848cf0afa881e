/*
 * test_read_fuzz.c -- deterministic mutation fuzzing of every reader.
 *
 * Seeds are the reader cases (tests/data/read), small corpus files and a few inline
 * histories; each round copies a seed into an exact-size heap buffer (so
 * ASan sees any overread), applies a few random byte mutations (fixed
 * seed), and reads it as detected and as a random forced format. The
 * assertion: the read returns 0 with a history, or -1 with a message and
 * no history; and the two-thread JSON-lines reader agrees with the
 * sequential one. Run under ASan+UBSan by `make sanitize`.
 */
#include "readtest.h"
#include "history/cursor.h"
#include "history/read_edn.h"
#include "history/read_json.h"
#include "history/split.h"

#include <dirent.h>
#include <sys/stat.h>

#define ROUNDS 6000
#define MAX_SEED 65536

struct seeds {
    char *data[128];
    size_t len[128];
    size_t n;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void add_seed(struct seeds *s, const char *p, size_t n)
{
    if (s->n == 128 || n > MAX_SEED) return;
    s->data[s->n] = malloc(n ? n : 1);
    memcpy(s->data[s->n], p, n);
    s->len[s->n++] = n;
}

static void add_file(struct seeds *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    char *buf = malloc(MAX_SEED + 1);
    size_t n = fread(buf, 1, MAX_SEED + 1, f);
    fclose(f);
    add_seed(s, buf, n);
    free(buf);
}

static void add_dir(struct seeds *s, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (case_is_case(dir, e->d_name) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) add_file(s, path);
    }
    if (d) closedir(d);
}

static void load_seeds(struct seeds *s)
{
    static const char *const inline_seeds[] = {
        "{:type :ok :value [#{1 2} (a b) {\"k\" \\c} 1.5M 3/4 99999999999999999999 #_ x #inst \"t\"]}",
        "[{\"type\":\"ok\",\"value\":[\"\\u00e9\\ud83d\\ude00\",1e5,-0,null,true,{}]}]",
        "INFO  jepsen.util - 2\t:invoke\t:cas\t[3 1]\nINFO  jepsen.util - 2\t:fail\t:cas\t[3 1]\n",
    };
    for (size_t i = 0; i < sizeof inline_seeds / sizeof inline_seeds[0]; i++)
        add_seed(s, inline_seeds[i], strlen(inline_seeds[i]));
    add_dir(s, "tests/data/read");
    add_dir(s, "tests/data/read/bad");
    const char *shared = tu_shared_dir(); /* $ISOLDE_SHARED, ../shared */
    if (shared) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/corpus/isocheck", shared);
        add_dir(s, dir);
        snprintf(dir, sizeof dir, "%s/corpus/elle/ligurio-elle-cli/histories/elle", shared);
        add_dir(s, dir);
        snprintf(dir, sizeof dir, "%s/corpus/elle/ligurio-elle-cli/histories/knossos/cas-register/bad", shared);
        add_dir(s, dir);
    }
}

/* Bytes that matter to some reader: likely to reach new states. */
static const char interesting[] = "[]{}()\"\\#_:;,\n -0123456789eE.NM/'@^{}x\xff\x00u";

static size_t mutate(char *p, size_t n, size_t cap)
{
    int k = 1 + (int)(next() % 6);
    for (int i = 0; i < k; i++) {
        size_t at = n ? (size_t)(next() % n) : 0;
        switch (next() % 5) {
        case 0: if (n) p[at] = (char)next(); break;
        case 1: if (n) p[at] = interesting[next() % (sizeof interesting - 1)]; break;
        case 2: /* insert */
            if (n < cap) {
                memmove(p + at + 1, p + at, n - at);
                p[at] = interesting[next() % (sizeof interesting - 1)];
                n++;
            }
            break;
        case 3: /* delete */
            if (n) { memmove(p + at, p + at + 1, n - at - 1); n--; }
            break;
        default: /* truncate */
            n = at;
        }
    }
    return n;
}

static void read_once(const char *p, size_t n, isolde_format f)
{
    char *buf = malloc(n ? n : 1); /* exact size: overreads are caught */
    memcpy(buf, p, n);
    isolde_history *h = (isolde_history *)1;
    isolde_error err = {0};
    int r = isolde_history_read_mem("fuzz", buf, n, tu_fmt(f), &h, &err);
    if (r == 0) {
        assert_non_null(h);
        iso_buf b = {0};
        for (size_t i = 0; i < h->n_ops && i < 4; i++) iso_op_json(h, &h->ops[i], &b);
        iso_buf_free(&b);
        isolde_history_free(h);
    } else {
        assert_true(r == ISOLDE_ERR_PARSE || r == ISOLDE_ERR_LIMIT); /* bad, or past a limit */
        assert_null(h);
        assert_true(err.msg[0] != 0);
        assert_true(err.line >= 0 && err.col >= 0);
    }
    free(buf);
}

static void ops_text(const isolde_history *h, iso_buf *b)
{
    for (size_t i = 0; i < h->n_ops; i++) {
        iso_op_json(h, &h->ops[i], b);
        iso_buf_printf(b, " @%u:%u\n", h->ops[i].line, h->ops[i].col);
    }
}

/* The two-thread reader agrees with the sequential one, op for op. */
static void split_agrees(const char *p, size_t n, isolde_format f, iso_lines_fn read_lines)
{
    char *buf = malloc(n ? n : 1);
    memcpy(buf, p, n);
    isolde_history *seq = iso_history_new("f", f), *par = iso_history_new("f", f);
    isolde_error e1 = {0}, e2 = {0};
    size_t lines;
    int r1 = read_lines(seq, buf, n, &lines, &e1), r2 = iso_read_split(par, buf, n, 0, read_lines, &e2);
    assert_int_equal(r1, r2);
    if (r1) {
        assert_string_equal(e1.msg, e2.msg);
    } else {
        iso_buf a = {0}, b = {0};
        ops_text(seq, &a);
        ops_text(par, &b);
        assert_string_equal(iso_buf_cstr(&a), iso_buf_cstr(&b));
        iso_buf_free(&a);
        iso_buf_free(&b);
    }
    isolde_history_free(seq);
    isolde_history_free(par);
    free(buf);
}

/* EDN cut where a line starts with '{' after one ending in '}' -- even
 * inside a string or a vector: the result is the sequential read's. */
static void test_edn_split_traps(void **state)
{
    (void)state;
    static const char *const traps[] = {
        "{:type :ok, :process 0, :value 1, :error \"a}\n{b\"}\n{:type :ok, :process 1}\n",
        "[{:type :ok, :process 0}\n{:type :ok, :process 1}]\n",
        "{:type :ok, :process 0} #_\n{:type :ok, :process 9}\n{:type :ok, :process 1}\n",
        "{:type :ok, :process 0}\n{:type :ok, :process 1}\n{:type :ok, :process 2}\n",
        "; c }\n{:type :ok, :process 0}\n{:type :ok, :process 1 :value [1\n2]}\n{:type :ok}\n",
    };
    for (size_t i = 0; i < sizeof traps / sizeof traps[0]; i++)
        split_agrees(traps[i], strlen(traps[i]), ISOLDE_FORMAT_EDN, iso_edn_lines);
}

static void test_mutations(void **state)
{
    (void)state;
    struct seeds s = {0};
    load_seeds(&s);
    assert_true(s.n >= 10);
    char *work = malloc(2 * MAX_SEED + 64);
    for (int round = 0; round < ROUNDS; round++) {
        size_t i = (size_t)(next() % s.n), n = s.len[i];
        memcpy(work, s.data[i], n);
        n = mutate(work, n, 2 * MAX_SEED + 64);
        read_once(work, n, ISOLDE_FORMAT_AUTO);
        read_once(work, n, (isolde_format)(1 + next() % 6));
        if (round % 4 == 0) split_agrees(work, n, ISOLDE_FORMAT_JSONL, iso_json_lines);
        if (round % 4 == 2) split_agrees(work, n, ISOLDE_FORMAT_EDN, iso_edn_lines);
    }
    free(work);
    for (size_t i = 0; i < s.n; i++) free(s.data[i]);
}

/* Every prefix of a seed is a truncated input: all must be handled. */
static void test_truncations(void **state)
{
    (void)state;
    struct seeds s = {0};
    load_seeds(&s);
    for (size_t i = 0; i < s.n; i++)
        for (size_t n = 0; n <= s.len[i] && n < 400; n++) read_once(s.data[i], n, ISOLDE_FORMAT_AUTO);
    for (size_t i = 0; i < s.n; i++) free(s.data[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_edn_split_traps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
