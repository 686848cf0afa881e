/*
 * test_url.c -- database URLs (lib/run/drivers/url.c): their parts,
 * the node each names, and redaction: no password survives run_url_redact,
 * whatever the URL looks like.
 */
#include "testutil.h"
#include "run/drivers/url.h"

static const struct {
    const char *url, *user, *password, *host, *db;
    int port;
    const char *node;
} parts[] = {
    {"postgresql://isolde:secret@127.0.0.1:5432/isolde", "isolde", "secret", "127.0.0.1", "isolde", 5432,
     "127.0.0.1:5432"},
    {"postgresql://isolde@localhost/db?sslmode=verify-full&sslrootcert=ca.pem", "isolde", NULL, "localhost",
     "db", 0, "localhost"},
    {"mysql://u:p%40ss@[::1]:3306/x", "u", "p@ss", "::1", "x", 3306, "::1:3306"},
    {"mysql://h", NULL, NULL, "h", NULL, 0, "h"},
    {"mysql://a:b:c@h:1/", "a", "b:c", "h", NULL, 1, "h:1"},
};

static void test_parts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        run_url u;
        char why[64], node[64];
        printf("# %s\n", parts[i].url);
        assert_int_equal(run_url_parse(parts[i].url, &u, why, sizeof why), 0);
        const char *got[] = {u.user, u.password, u.host, u.db};
        const char *want[] = {parts[i].user, parts[i].password, parts[i].host, parts[i].db};
        for (int k = 0; k < 4; k++) {
            if (!want[k]) assert_null(got[k]);
            else assert_string_equal(got[k], want[k]);
        }
        assert_int_equal(u.port, parts[i].port);
        run_url_node(parts[i].url, node, sizeof node);
        assert_string_equal(node, parts[i].node);
    }
}

static void test_params(void **state)
{
    (void)state;
    run_url u;
    char why[64];
    assert_int_equal(run_url_parse("mysql://h/db?ssl=1&ssl-ca=%2Ftmp%2Fca.pem&flag", &u, why, sizeof why), 0);
    assert_string_equal(run_url_param(&u, "ssl"), "1");
    assert_string_equal(run_url_param(&u, "ssl-ca"), "/tmp/ca.pem");
    assert_string_equal(run_url_param(&u, "flag"), "");
    assert_null(run_url_param(&u, "nope"));
}

static void test_bad_urls(void **state)
{
    (void)state;
    static const char *const bad[] = {"not a url", "://h", "pg://h:0/x", "pg://h:99999", "pg://h:12a",
                                      "pg://[::1/x", "pg://h:/x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_url u;
        char why[64] = "";
        printf("# %s\n", bad[i]);
        assert_int_equal(run_url_parse(bad[i], &u, why, sizeof why), -1);
        assert_true(why[0] != '\0');
    }
}

static const struct {
    const char *url, *shown;
} redacted[] = {
    {"postgresql://isolde:secret@127.0.0.1:5432/isolde", "postgresql://isolde:***@127.0.0.1:5432/isolde"},
    {"postgresql://isolde@h/db?password=secret&sslmode=require",
     "postgresql://isolde@h/db?password=***&sslmode=require"},
    {"mysql://u:secret@h/db?sslpassword=secret", "mysql://u:***@h/db?sslpassword=***"},
    {"mysql://u:sec@ret@h/db", "mysql://u:***@h/db"},
    {"host=h password=secret dbname=x", "host=h password=*** ..."},
    {"/tmp/file.db", "/tmp/file.db"},
};

static void test_redact(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof redacted / sizeof redacted[0]; i++) {
        char out[256];
        printf("# %s\n", redacted[i].url);
        run_url_redact(redacted[i].url, out, sizeof out);
        assert_string_equal(out, redacted[i].shown);
        assert_null(strstr(out, "secret"));
    }
}

/* A short output buffer cuts the text, never exposing the secret by it. */
static void test_redact_short_buffer(void **state)
{
    (void)state;
    for (size_t cap = 1; cap < 40; cap++) {
        char out[40];
        run_url_redact("postgresql://isolde:secret@127.0.0.1/db", out, cap);
        assert_true(strlen(out) < cap);
        assert_null(strstr(out, "sec"));
    }
}

/* The proxy's rewrite: host:port replaced, all else (the password too)
 * kept; the scheme's port when the URL names none. */
static void test_rehost(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"mysql://isolde:pw@127.0.0.1:3306/isolde?ssl=1", "mysql://isolde:pw@127.0.0.1:9/isolde?ssl=1"},
        {"postgresql://u@[::1]/db", "postgresql://u@127.0.0.1:9/db"},
        {"mysql://h", "mysql://127.0.0.1:9"},
        {"mysql://a@b@h:1?x=1", "mysql://a@b@127.0.0.1:9?x=1"},
    };
    char out[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(run_url_rehost(cases[i][0], "127.0.0.1:9", out, sizeof out), 0);
        assert_string_equal(out, cases[i][1]);
    }
    assert_int_equal(run_url_rehost("not a url", "127.0.0.1:9", out, sizeof out), -1);
    assert_int_equal(run_url_rehost("mysql://h/db", "127.0.0.1:9", out, 10), -1);
    static const struct { const char *url; int port; } ports[] = {
        {"mysql://h/d", 3306}, {"mariadb://h", 3306}, {"postgres://h", 5432}, {"postgresql://h:7/d", 7}, {"x://h", 0}};
    for (size_t i = 0; i < sizeof ports / sizeof ports[0]; i++) {
        run_url u;
        char why[64];
        assert_int_equal(run_url_parse(ports[i].url, &u, why, sizeof why), 0);
        assert_int_equal(run_url_port(&u), ports[i].port);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_bad_urls),
        cmocka_unit_test(test_redact),
        cmocka_unit_test(test_redact_short_buffer),
        cmocka_unit_test(test_rehost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
