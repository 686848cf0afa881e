/*
 * test_url.c -- database URLs (lib/run/drivers/url.c): their parts,
 * the node each names, and redaction: no password survives run_url_redact,
 * isolde_url_hide_password or a scrub of the URL's secrets, whatever the
 * URL looks like, whatever the password's length or encoding.
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
    {"host=h password=secret dbname=x", "host=h password=*** dbname=x"},
    {"host=h password = 'sec ret\\' x' dbname=x", "host=h password = '***' dbname=x"},
    {"host=h sslpassword=secret", "host=h sslpassword=***"},
    {"/tmp/file.db", "/tmp/file.db"},
    /* what its writer did not percent-encode: every reading of it hidden */
    {"postgresql://u:sec/ret@h/db", "postgresql://u:***@h/db"},
    {"postgresql://u:sec?ret@h/db", "postgresql://u:***@h/db"},
    {"postgresql://u:secret@[::1/db", "postgresql://u:***@[::1/db"},
    {"postgresql://u@h:5432/db?sslrootcert=/a@b", "postgresql://u@h:5432/db?sslrootcert=/a@b"},
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

/* A user part whose end the readings disagree on is ambiguous. */
static void test_ambiguous(void **state)
{
    (void)state;
    static const char *const clear[] = {"postgresql://u:p%2Fw@h/db", "mysql://u@h/db?ca=/a@b", "mysql://h", "x.db",
                                        "host=h password=a/b@c"};
    static const char *const ambiguous[] = {"postgresql://u:p/w@h/db", "postgresql://u:p?w@h/db",
                                            "mysql://u:p@w@h/db", "mysql://h/d@b"};
    for (size_t i = 0; i < sizeof clear / sizeof clear[0]; i++) assert_false(run_url_ambiguous(clear[i]));
    for (size_t i = 0; i < sizeof ambiguous / sizeof ambiguous[0]; i++) assert_true(run_url_ambiguous(ambiguous[i]));
}

/* Passwords hidden in place, their length kept (a program's argv). */
static void test_hide(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"postgresql://u:secret@h/db?password=x%41y&a=1", "postgresql://u:******@h/db?password=*****&a=1"},
        {"host=h password='a b' port=1", "host=h password='***' port=1"},
        {"mysql://h/db?ssl=1", "mysql://h/db?ssl=1"},
        {"python3 client.py", "python3 client.py"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char url[128];
        snprintf(url, sizeof url, "%s", cases[i][0]);
        isolde_url_hide_password(url);
        assert_string_equal(url, cases[i][1]);
    }
    isolde_url_hide_password(NULL);
}

/* A message that quotes the URL, or the password in any form, loses it:
 * as written, percent-decoded, escaped, and of any length. */
static void test_secrets(void **state)
{
    (void)state;
    char long_pw[600], url[700], msg[2048];
    memset(long_pw, 'L', sizeof long_pw - 1);
    long_pw[sizeof long_pw - 1] = '\0';
    static const struct { const char *url, *msg, *secret; } cases[] = {
        {"postgresql://u:SEC%52ET@h/db", "URI: \"postgresql://u:SEC%52ET@h/db\" and SECRET", "SEC"},
        {"postgresql://u:SEC/RET@h/db", "port \"SEC/RET@h\" or SEC/RET", "SEC"},
        {"host=h password='SEC\\'RET'", "password SEC'RET or SEC\\'RET", "SEC"},
        {"mysql://u@h/db?password=SECRET&sslpassword=OTHER", "SECRET, OTHER", "SECRET"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_secrets s = {0};
        run_secrets_of_url(&s, cases[i].url);
        snprintf(msg, sizeof msg, "%s", cases[i].msg);
        run_secrets_scrub(&s, msg);
        printf("# %s -> %s\n", cases[i].msg, msg);
        assert_null(strstr(msg, cases[i].secret));
        assert_null(strstr(msg, "RET"));
        assert_null(strstr(msg, "OTHER"));
        run_secrets_release(&s);
    }
    run_secrets s = {0};
    snprintf(url, sizeof url, "postgresql://u:%s@[::1/db", long_pw);
    snprintf(msg, sizeof msg, "bad URI: \"%s\"", url);
    run_secrets_of_url(&s, url);
    run_secrets_add(&s, "", 0);
    run_secrets_add(&s, NULL, 3);
    run_secrets_scrub(&s, msg);
    assert_string_equal(msg, "bad URI: \"postgresql://u:***@[::1/db\"");
    run_secrets_release(&s);
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
        cmocka_unit_test(test_ambiguous),
        cmocka_unit_test(test_hide),
        cmocka_unit_test(test_secrets),
        cmocka_unit_test(test_rehost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
