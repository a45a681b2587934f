/* A Wayland client for the kernel suite: maps one window (xdg-shell, a shm buffer) and prints,
 * one line each, what the compositor tells it through zwp_pointer_gestures_v1 — the touchpad
 * gestures an application such as a browser receives:
 *   ready | enter | swipe begin N | swipe update DX DY | swipe end 0|1 (cancelled)
 *   pinch begin N | pinch update DX DY SCALE ROTATION | pinch end 0|1
 * Built by Tests/VM/run.sh with wayland-scanner's code for xdg-shell and pointer-gestures. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static struct wl_seat *seat;
static struct zwp_pointer_gestures_v1 *gestures;
static struct wl_pointer *pointer;
static struct wl_surface *surface;
static int width = 640, height = 480, configured;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); vprintf(fmt, ap); va_end(ap);
    putchar('\n'); fflush(stdout);
}

static void swipe_begin(void *d, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time,
                        struct wl_surface *s, uint32_t fingers) { say("swipe begin %u", fingers); }
static void swipe_update(void *d, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t time, wl_fixed_t dx, wl_fixed_t dy) {
    say("swipe update %.3f %.3f", wl_fixed_to_double(dx), wl_fixed_to_double(dy));
}
static void swipe_end(void *d, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time, int32_t cancelled) {
    say("swipe end %d", cancelled);
}
static const struct zwp_pointer_gesture_swipe_v1_listener swipe_listener = { swipe_begin, swipe_update, swipe_end };

static void pinch_begin(void *d, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time,
                        struct wl_surface *s, uint32_t fingers) { say("pinch begin %u", fingers); }
static void pinch_update(void *d, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t time, wl_fixed_t dx, wl_fixed_t dy,
                         wl_fixed_t scale, wl_fixed_t rotation) {
    say("pinch update %.3f %.3f %.4f %.3f", wl_fixed_to_double(dx), wl_fixed_to_double(dy), wl_fixed_to_double(scale),
        wl_fixed_to_double(rotation));
}
static void pinch_end(void *d, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time, int32_t cancelled) {
    say("pinch end %d", cancelled);
}
static const struct zwp_pointer_gesture_pinch_v1_listener pinch_listener = { pinch_begin, pinch_update, pinch_end };

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) { say("enter"); }
static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) { say("leave"); }
static void p_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {}
static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    say("button %u %u", button, state);
}
static void p_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    say("axis %u %.3f", axis, wl_fixed_to_double(value));
}
static void p_frame(void *d, struct wl_pointer *p) {}
static void p_axis_source(void *d, struct wl_pointer *p, uint32_t source) {}
static void p_axis_stop(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis) {}
static void p_axis_discrete(void *d, struct wl_pointer *p, uint32_t axis, int32_t discrete) {}
static const struct wl_pointer_listener pointer_listener = {
    p_enter, p_leave, p_motion, p_button, p_axis, p_frame, p_axis_source, p_axis_stop, p_axis_discrete };

static void seat_caps(void *d, struct wl_seat *s, uint32_t caps) {
    if ((caps & WL_SEAT_CAPABILITY_POINTER) && !pointer) {
        pointer = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer, &pointer_listener, NULL);
        zwp_pointer_gesture_swipe_v1_add_listener(zwp_pointer_gestures_v1_get_swipe_gesture(gestures, pointer), &swipe_listener, NULL);
        zwp_pointer_gesture_pinch_v1_add_listener(zwp_pointer_gestures_v1_get_pinch_gesture(gestures, pointer), &pinch_listener, NULL);
        say("pointer");
    }
}
static void seat_name(void *d, struct wl_seat *s, const char *name) {}
static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void ping(void *d, struct xdg_wm_base *b, uint32_t serial) { xdg_wm_base_pong(b, serial); }
static const struct xdg_wm_base_listener wm_listener = { ping };

static void global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
    if (!strcmp(iface, wl_compositor_interface.name)) compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
    else if (!strcmp(iface, wl_shm_interface.name)) shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
    else if (!strcmp(iface, xdg_wm_base_interface.name)) {
        wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
    } else if (!strcmp(iface, wl_seat_interface.name) && !seat) seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
    else if (!strcmp(iface, zwp_pointer_gestures_v1_interface.name)) gestures = wl_registry_bind(r, name, &zwp_pointer_gestures_v1_interface, 1);
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { global, global_remove };

static void draw(void) {
    int stride = width * 4, size = stride * height;
    int fd = memfd_create("gesture-client", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0) { perror("memfd"); exit(1); }
    uint32_t *px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    for (int i = 0; i < width * height; i++) px[i] = 0xff336699;
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *buf = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool); munmap(px, size); close(fd);
    wl_surface_attach(surface, buf, 0, 0);
    wl_surface_damage(surface, 0, 0, width, height);
    wl_surface_commit(surface);
}

/* Every configure gets a buffer of the size asked: a smaller one would sit centred in its tile,
 * away from where the pointer entered. */
static void xs_configure(void *d, struct xdg_surface *xs, uint32_t serial) {
    xdg_surface_ack_configure(xs, serial);
    draw();
    if (!configured) { configured = 1; say("ready"); }
}
static const struct xdg_surface_listener xs_listener = { xs_configure };
static void top_configure(void *d, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
    if (w > 0 && h > 0) { width = w; height = h; }
}
static void top_close(void *d, struct xdg_toplevel *t) { exit(0); }
static const struct xdg_toplevel_listener top_listener = { top_configure, top_close };

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "gesture-client: cannot connect to the Wayland display\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !shm || !wm_base || !seat || !gestures) {
        fprintf(stderr, "gesture-client: missing globals (compositor %p shm %p xdg_wm_base %p seat %p pointer gestures %p)\n",
                (void *)compositor, (void *)shm, (void *)wm_base, (void *)seat, (void *)gestures);
        return 1;
    }
    wl_seat_add_listener(seat, &seat_listener, NULL);
    surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xs, &xs_listener, NULL);
    struct xdg_toplevel *top = xdg_surface_get_toplevel(xs);
    xdg_toplevel_add_listener(top, &top_listener, NULL);
    xdg_toplevel_set_title(top, "gestured gesture client");
    wl_surface_commit(surface);
    while (wl_display_dispatch(display) != -1) {}
    return 0;
}
