/*
 * core/version.c -- what this library is: its version (the header's
 * version block, made from the Makefile's VERSION) and the optional
 * libraries it was built with, each found at build time (by pkg-config,
 * or CaDiCaL by a test program: ISO_HAVE_<LIB>), by the name the build
 * gives it.
 */
#include "isolde.h"

#include <string.h>

const char *isolde_version(void) { return ISOLDE_VERSION; }
int isolde_version_number(void) { return ISOLDE_VERSION_NUMBER; }

#ifdef ISO_HAVE_ZLIB
#define ZLIB 1
#else
#define ZLIB 0
#endif
#ifdef ISO_HAVE_SQLITE
#define SQLITE 1
#else
#define SQLITE 0
#endif
#ifdef ISO_HAVE_LIBPQ
#define LIBPQ 1
#else
#define LIBPQ 0
#endif
#ifdef ISO_HAVE_MARIADB
#define MARIADB 1
#else
#define MARIADB 0
#endif
#ifdef ISO_HAVE_CURL
#define CURL 1
#else
#define CURL 0
#endif
#ifdef ISO_HAVE_GVC
#define GVC 1
#else
#define GVC 0
#endif
#ifdef ISO_HAVE_CADICAL
#define CADICAL 1
#else
#define CADICAL 0
#endif

static const struct { const char *name; int built; } features[] = {
    {"zlib", ZLIB}, {"sqlite", SQLITE}, {"libpq", LIBPQ}, {"mariadb", MARIADB}, {"curl", CURL}, {"gvc", GVC},
    {"cadical", CADICAL},
};
#define N_FEATURES (sizeof features / sizeof features[0])

const char *isolde_feature_name(size_t i) { return i < N_FEATURES ? features[i].name : NULL; }

int isolde_feature(const char *name)
{
    for (size_t i = 0; name && i < N_FEATURES; i++)
        if (strcmp(features[i].name, name) == 0) return features[i].built;
    return -1;
}
