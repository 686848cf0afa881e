/*
 * test_sql.c -- the SQL drivers' messages (lib/run/drivers/sql.c): every
 * secret scrubbed before the message is cut short (so no prefix of one
 * survives), lines joined, repeats dropped, tabs as spaces.
 */
#include "testutil.h"
#include "run/drivers/sql.h"

static void test_message_lines(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"connection to server at \"h\", port 1 failed: Connection refused\n\tIs the server running?\n",
         "connection to server at \"h\", port 1 failed: Connection refused; Is the server running?"},
        {"FATAL:  password authentication failed\nFATAL:  password authentication failed\n",
         "FATAL:  password authentication failed"},
        {"a\tb\r\n\n  c  \n", "a b; c"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[256];
        sql_message(out, sizeof out, cases[i][0], NULL);
        assert_string_equal(out, cases[i][1]);
    }
}

/* A password at the end of a long message: scrubbed whole, then cut. */
static void test_message_cut_after_scrub(void **state)
{
    (void)state;
    run_secrets s = {0};
    run_secrets_add(&s, "hunter2hunter2", 14);
    char msg[200], out[40];
    snprintf(msg, sizeof msg, "%30s failed for hunter2hunter2", "x");
    for (size_t cap = 1; cap <= sizeof out; cap++) {
        sql_message(out, cap, msg, &s);
        assert_null(strstr(out, "hunter"));
        assert_null(strstr(out, "hunt"));
    }
    run_secrets_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_lines),
        cmocka_unit_test(test_message_cut_after_scrub),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
