/* test_page.c -- report/: a result of any kind written from what its kind
 * supplies. The page: the common fields, then the kind's, '<' never
 * reaching the data block or a text block as markup; the directory: the
 * kind's files, results.json as shown and index.html. */
#include "testutil.h"
#include "report/report.h"

#include <stdlib.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 20);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int fake_text(const isolde_result *r, FILE *out, const isolde_report_opts *o)
{
    (void)r, (void)o;
    return fputs("text\n", out) < 0 ? -1 : 0;
}

static int fake_json(const isolde_result *r, FILE *out, int shown)
{
    (void)r;
    return fprintf(out, "{\"shown\":%d}\n", shown) < 0 ? -1 : 0;
}

static void fake_page(const isolde_result *r, iso_html *h)
{
    (void)r;
    iso_html_string(h, "text", "</script><img src=x onerror=alert(1)>");
    iso_html_text_block(h, "t");
    iso_html_text(h, "a\\b</script>\nc", 14);
}

static int write_own(FILE *out, void *arg)
{
    (void)arg;
    return fputs("own\n", out) < 0 ? -1 : 0;
}

static int fake_files(const isolde_result *r, const char *dir, isolde_error *err)
{
    (void)r;
    return iso_report_write_file(dir, "own.txt", write_own, NULL, err);
}

static const iso_result_kind fake = {"fake", fake_text, fake_json, fake_page, fake_files, NULL, NULL};

static void page_holds_no_tag_from_data(void **state)
{
    (void)state;
    isolde_result *r = iso_result_new(&fake, NULL, ISOLDE_INVALID, "G<0", 2);
    char path[] = "/tmp/isolde-test-page-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_int_equal(isolde_result_write_html(r, out, NULL), ISOLDE_OK);
    fclose(out);
    char *page = slurp(path);
    unlink(path);
    const char *data = strstr(page, "<script type=\"application/json\" id=\"isolde-data\">");
    assert_non_null(data);
    assert_non_null(strstr(data, "{\"kind\":\"fake\",\"valid\":\"false\",\"types\":[[\"G\\u003c0\",2]],"
                                 "\"text\":\"\\u003c/script>\\u003cimg src=x onerror=alert(1)>\"}</script>\n"
                                 "<script type=\"text/plain\" id=\"t\">a\\\\b\\l/script>\\nc</script>\n<script>\n"));
    free(page);
    isolde_result_free(r);
}

static void directory_holds_the_kinds_files_and_the_common_ones(void **state)
{
    (void)state;
    char dir[] = "/tmp/isolde-test-page-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sub/dir", dir);
    isolde_result *r = iso_result_new(&fake, NULL, ISOLDE_VALID, NULL, 0);
    assert_int_equal(isolde_result_write_dir(r, path, NULL), ISOLDE_OK);
    const char *names[] = {"own.txt", "results.json", "index.html"}, *want[] = {"own\n", "{\"shown\":1}\n", NULL};
    for (int i = 0; i < 3; i++) {
        char file[300];
        snprintf(file, sizeof file, "%s/%s", path, names[i]);
        char *got = slurp(file);
        if (want[i]) assert_string_equal(got, want[i]);
        else assert_non_null(strstr(got, "{\"kind\":\"fake\",\"valid\":\"true\",\"types\":[],\"text\":"));
        free(got);
        unlink(file);
    }
    isolde_result_free(r);
    rmdir(path);
    snprintf(path, sizeof path, "%s/sub", dir);
    rmdir(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(page_holds_no_tag_from_data),
        cmocka_unit_test(directory_holds_the_kinds_files_and_the_common_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
