/* test_buf.c -- core/buf.c: growable text, integers, and spans of time in
 * the unit that suits them. */
#include "testutil.h"
#include "core/buf.h"

static const struct { int64_t ns; const char *text; } durations[] = {
    {0, "0 ns"},           {850, "850 ns"},          {999, "999 ns"},
    {1000, "1 \xc2\xb5s"}, {12500, "12.5 \xc2\xb5s"}, {999700, "1 ms"},
    {3070000, "3.07 ms"},  {999700000, "1 s"},       {1500000000, "1.5 s"},
    {999400000000, "999 s"}, {4217000000000, "4217 s"}, {-2500000, "-2.5 ms"},
    {INT64_MAX, "9223372037 s"},
};

static void durations_in_their_unit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
        iso_buf b = {0};
        iso_buf_duration(&b, durations[i].ns);
        if (strcmp(iso_buf_cstr(&b), durations[i].text))
            fail_msg("%lld ns: '%s', wanted '%s'", (long long)durations[i].ns, iso_buf_cstr(&b),
                     durations[i].text);
        iso_buf_free(&b);
    }
}

static void text_and_integers(void **state)
{
    (void)state;
    iso_buf b = {0};
    iso_buf_puts(&b, "n=");
    iso_buf_int(&b, INT64_MIN);
    iso_buf_printf(&b, " %s", "ok");
    assert_string_equal(iso_buf_cstr(&b), "n=-9223372036854775808 ok");
    iso_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(durations_in_their_unit),
        cmocka_unit_test(text_and_integers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
