/*
 * report/svg.c -- DOT laid out as SVG in memory by Graphviz's libgvc,
 * linked when pkg-config found it at build time (ISO_HAVE_GVC), with its
 * dot layout and core renderer as built-in plugins (no plugin config file
 * needed, nothing run). Without it there is no SVG: -d writes DOT alone
 * and the HTML viewer lays pictures out itself.
 *
 * Invariant: Graphviz's messages never reach stderr (lib/ never prints),
 * and one context is used by one thread at a time.
 */
#include "report/report.h"

#ifdef ISO_HAVE_GVC
#include <gvc.h>
#include <pthread.h>

extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
static lt_symlist_t gvc_plugins[] = {
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
    {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
    {0, 0},
};
static pthread_mutex_t gvc_lock = PTHREAD_MUTEX_INITIALIZER;

static int quiet(char *msg) { (void)msg; return 0; }
static void free_svg(void *svg) { gvFreeRenderData(svg); }

/* g laid out and rendered: the SVG (to free with gvFreeRenderData), or NULL. */
static char *layout(GVC_t *gvc, Agraph_t *g, unsigned int *n)
{
    char *svg = NULL;
    if (gvLayout(gvc, g, "dot")) return NULL;
    if (gvRenderData(gvc, g, "svg", &svg, n) && svg) gvFreeRenderData(svg), svg = NULL;
    gvFreeLayout(gvc, g);
    return svg;
}

/* Graphviz allocates outside the guard: everything of it is freed and the
 * lock released before out grows, and the SVG is freed if that unwinds
 * (the guard's one undo slot, which no caller holds here). */
int iso_dot_svg(const char *dot, iso_buf *out)
{
    unsigned int n = 0;
    pthread_mutex_lock(&gvc_lock);
    agseterr(AGMAX);
    agseterrf(quiet);
    GVC_t *gvc = gvContextPlugins(gvc_plugins, 0);
    Agraph_t *g = gvc ? agmemread(dot) : NULL;
    char *svg = g ? layout(gvc, g, &n) : NULL;
    if (g) agclose(g);
    if (gvc) gvFreeContext(gvc);
    pthread_mutex_unlock(&gvc_lock);
    if (!svg) return -1;
    iso_guard_on_unwind(free_svg, svg);
    iso_buf_put(out, svg, n);
    iso_guard_on_unwind(NULL, NULL);
    gvFreeRenderData(svg);
    return 0;
}
#else
int iso_dot_svg(const char *dot, iso_buf *out)
{
    (void)dot, (void)out;
    return -1;
}
#endif
