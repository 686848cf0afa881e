/* test_version.c -- core/version.c: the library's version is the header's
 * (the string and the number agree, MAJOR * 1000000 + MINOR * 1000 +
 * PATCH), and the features it names are the ones it was built with. */
#include "testutil.h"
#include "isolde.h"

#include <stdio.h>

static void version_is_the_headers(void **state)
{
    (void)state;
    assert_string_equal(isolde_version(), ISOLDE_VERSION);
    assert_int_equal(isolde_version_number(), ISOLDE_VERSION_NUMBER);
    int major, minor, patch;
    assert_int_equal(sscanf(ISOLDE_VERSION, "%d.%d.%d", &major, &minor, &patch), 3);
    assert_int_equal(ISOLDE_VERSION_NUMBER, major * 1000000 + minor * 1000 + patch);
}

static void features_say_what_was_built(void **state)
{
    (void)state;
    size_t n = 0;
    for (const char *f; (f = isolde_feature_name(n)); n++) assert_in_range(isolde_feature(f), 0, 1);
    assert_int_equal(n, 7);
    assert_int_equal(isolde_feature("no-such"), -1);
    assert_int_equal(isolde_feature(NULL), -1);
#ifdef ISO_HAVE_ZLIB
    assert_int_equal(isolde_feature("zlib"), 1);
#else
    assert_int_equal(isolde_feature("zlib"), 0);
#endif
#ifdef ISO_HAVE_CADICAL
    assert_int_equal(isolde_feature("cadical"), 1);
#else
    assert_int_equal(isolde_feature("cadical"), 0);
#endif
    int sqlite = 0; /* the sqlite backend is there exactly when the feature is */
    for (size_t i = 0; isolde_backend_at(i); i++) sqlite |= strcmp(isolde_backend_at(i)->name, "sqlite") == 0;
    assert_int_equal(isolde_feature("sqlite"), sqlite);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_is_the_headers),
        cmocka_unit_test(features_say_what_was_built),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
