// The on-demand libsystemd (include/CSystemd.h): one dlopen per process, a table of the
// functions used, and the gsd_ twins that call through it.
#include "CSystemd.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
#define GSD_FIELD(type, name, params, args, failure) type (*name) params;
    GSD_FUNCTIONS(GSD_FIELD)
#undef GSD_FIELD
    void (*bus_error_free)(sd_bus_error *e);
} table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char problem[512];

static void load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *e = dlerror();
        snprintf(problem, sizeof problem, "libsystemd.so.0 cannot be loaded (%s)", e ? e : "dlopen failed");
        return;
    }
    // A symbol missing (a libsystemd older than the headers): nothing is used, the text names it.
#define GSD_RESOLVE(type, name, params, args, failure) \
    if (!(table.name = (type (*) params)dlsym(library, "sd_" #name))) goto missing;
    GSD_FUNCTIONS(GSD_RESOLVE)
    GSD_RESOLVE(void, bus_error_free, (sd_bus_error *e), (e), )
#undef GSD_RESOLVE
    loaded = 1;
    return;
missing:
    snprintf(problem, sizeof problem, "libsystemd.so.0 cannot be loaded (%s)", dlerror());
    memset(&table, 0, sizeof table);
    dlclose(library);
}

const char *gsd_load(void) {
    pthread_once(&once, load);
    return loaded ? NULL : problem;
}

#define GSD_TWIN(type, name, params, args, failure) \
    type gsd_##name params { \
        if (gsd_load()) return failure; \
        return table.name args; \
    }
GSD_FUNCTIONS(GSD_TWIN)
#undef GSD_TWIN

void gsd_bus_error_free(sd_bus_error *e) {
    if (!gsd_load()) table.bus_error_free(e);
}
