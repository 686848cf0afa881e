/*
 * history/detect.c -- guess a history's format from its first bytes: '#' comment
 * lines (IsoCheck), a {"history": ...} header (OneLite), JSON arrays and
 * objects (a '"' key), history.txt's tab-separated op lines, jepsen.log
 * text lines, the research checkers' formats (dbcop's bincode by its
 * header, Cobra's logs by their first records; Plume's "r(" and AWDIT's
 * "r 1 2" lines, or a line of '=' or '-'; Chronos's array of objects whose
 * first key is "sid", "tid", "sts", "cts" or "ops"), and EDN for
 * everything else.
 */
#include "history/read.h"

#include <string.h>

#define LOG_PROBE 65536 /* bytes searched for a jepsen.log op line */

static size_t skip_ws(const char *p, size_t i, size_t len)
{
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    return i;
}

static int has_at(const char *p, size_t i, size_t len, const char *s)
{
    size_t n = strlen(s);
    return len - i >= n && memcmp(p + i, s, n) == 0;
}

static int contains(const char *p, size_t len, const char *s)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] == s[0] && has_at(p, i, len, s)) return 1;
    return 0;
}

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* At '#': an EDN tagged record (#a.b.C{...}), '#_' or '#{', else a comment. */
static isolde_format detect_hash(const char *p, size_t i, size_t len, const char **why)
{
    char c = i + 1 < len ? p[i + 1] : 0;
    *why = "it begins with an EDN '#' form";
    if (c == '_' || c == '{') return ISOLDE_FORMAT_EDN;
    *why = "its first line is a '#' comment";
    if (!is_alpha(c)) return ISOLDE_FORMAT_ISOCHECK;
    size_t j = i + 1;
    while (j < len && (is_alpha(p[j]) || p[j] == '.' || p[j] == '-' || p[j] == '_' ||
                       (p[j] >= '0' && p[j] <= '9')))
        j++;
    if (j < len && p[j] == '{') return *why = "it begins with an EDN tagged record (#name{)", ISOLDE_FORMAT_EDN;
    return ISOLDE_FORMAT_ISOCHECK;
}

/* At '{' followed by a '"' key: a OneLite header or a JSON-lines op. */
static isolde_format detect_object(const char *p, size_t i, size_t len, const char **why)
{
    *why = "its first byte is '{' and a '\"' key follows";
    if (!has_at(p, i, len, "\"history\"")) return ISOLDE_FORMAT_JSONL;
    i = skip_ws(p, i + 9, len);
    if (i < len && p[i] == ':') i = skip_ws(p, i + 1, len);
    if (i < len && p[i] == '"') return *why = "it begins with a {\"history\": ...} header", ISOLDE_FORMAT_ONELITE;
    return ISOLDE_FORMAT_JSONL;
}

/* At i: one token, a tab and a type keyword with a tab after it -- an op
 * line of history.txt ("3\t:invoke\t:read\tnil"). */
static int txt_line(const char *p, size_t i, size_t len)
{
    static const char *const types[] = {":invoke\t", ":ok\t", ":fail\t", ":info\t"};
    size_t j = i;
    while (j < len && p[j] != '\t' && p[j] != '\n' && p[j] != ' ') j++;
    if (j == i || j == len || p[j] != '\t') return 0;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        if (has_at(p, j + 1, len, types[k])) return 1;
    return 0;
}

/* At '[': elle-cli's array of JSON objects, or EDN. */
static isolde_format detect_array(const char *p, size_t j, size_t len, const char **why)
{
    if (j < len && p[j] == ']') return *why = "it is an empty array", ISOLDE_FORMAT_JSON;
    if (j < len && p[j] == '{') {
        j = skip_ws(p, j + 1, len);
        static const char *const chronos[] = {"\"sid\"", "\"tid\"", "\"sts\"", "\"cts\"", "\"ops\""};
        for (size_t k = 0; k < sizeof chronos / sizeof chronos[0]; k++)
            if (has_at(p, j, len, chronos[k]))
                return *why = "it begins with '[' and an object whose first key is Chronos's", ISOLDE_FORMAT_CHRONOS;
        if (j < len && p[j] == '"') return *why = "it begins with '[' and a JSON object", ISOLDE_FORMAT_JSON;
    }
    *why = "it begins with '[' but no JSON object";
    return ISOLDE_FORMAT_EDN;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* At i: a line of Plume's ("r(1,2,0,0)") or AWDIT's ("r 1 2", or a line
 * of '=' or '-' alone): that format, else AUTO. */
static isolde_format detect_ops(const char *p, size_t i, size_t len, const char **why)
{
    char c = p[i], d = i + 1 < len ? p[i + 1] : 0, e = i + 2 < len ? p[i + 2] : 0;
    if ((c == 'r' || c == 'w') && d == '(' && is_digit(e))
        return *why = "its first line begins as r( or w( and a number", ISOLDE_FORMAT_PLUME;
    if ((c == 'r' || c == 'w') && (d == ' ' || d == '\t')) {
        size_t j = i + 1;
        while (j < len && (p[j] == ' ' || p[j] == '\t')) j++;
        if (j < len && is_digit(p[j])) return *why = "its first line is r or w, a blank and a number", ISOLDE_FORMAT_AWDIT;
    }
    if (c != '=' && c != '-') return ISOLDE_FORMAT_AUTO;
    size_t j = i;
    while (j < len && p[j] == c) j++;
    while (j < len && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r')) j++;
    if (j == len || p[j] == '\n') return *why = "its first line is a line of '=' or '-' alone", ISOLDE_FORMAT_AWDIT;
    return ISOLDE_FORMAT_AUTO;
}

/* Any other first byte: jepsen.log's text lines, or EDN. */
static isolde_format detect_other(const char *p, size_t i, size_t len, const char **why)
{
    static const char firsts[] = "(;:";
    static const char *const marks[] = {"its first byte is '('", "its first byte is ';'", "its first byte is ':'"};
    const char *mark = p[i] ? strchr(firsts, p[i]) : NULL;
    if (mark) return *why = marks[mark - firsts], ISOLDE_FORMAT_EDN;
    isolde_format ops = detect_ops(p, i, len, why);
    if (ops != ISOLDE_FORMAT_AUTO) return ops;
    if (contains(p + i, len - i < LOG_PROBE ? len - i : LOG_PROBE, "jepsen.util"))
        return *why = "'jepsen.util' is in its first 64 KiB", ISOLDE_FORMAT_JEPSEN_LOG;
    *why = "no other format's mark is at its start; EDN is the default";
    return ISOLDE_FORMAT_EDN;
}

isolde_format iso_detect_format(const char *p, size_t len, const char **why)
{
    const char *ignored;
    if (!why) why = &ignored;
    isolde_format binary = iso_detect_binary(p, len);
    if (binary != ISOLDE_FORMAT_AUTO)
        return *why = binary == ISOLDE_FORMAT_DBCOP ? "it begins as dbcop's bincode header"
                                                    : "it begins as Cobra's log (a start record, then another)", binary;
    size_t i = skip_ws(p, 0, len);
    if (i == len) return *why = "it is empty", ISOLDE_FORMAT_EDN;
    if (txt_line(p, i, len)) return *why = "its first line is an index, a tab, a :type and a tab", ISOLDE_FORMAT_JEPSEN_TXT;
    size_t j = skip_ws(p, i + 1, len);
    switch (p[i]) {
    case '#': return detect_hash(p, i, len, why);
    case '{':
        if (j < len && p[j] == '"') return detect_object(p, j, len, why);
        return *why = "its first byte is '{' without a '\"' key after it", ISOLDE_FORMAT_EDN;
    case '[': return detect_array(p, j, len, why);
    default: return detect_other(p, i, len, why);
    }
}
