#include "CWlrForeignToplevel.h"

/* The manager's interface by address: Swift would bind a copy of the C constant. */
const struct wl_interface *gestured_wlr_toplevel_manager_interface(void) {
    return &zwlr_foreign_toplevel_manager_v1_interface;
}
