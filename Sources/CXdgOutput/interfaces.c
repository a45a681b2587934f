#include "CXdgOutput.h"

/* The manager's interface by address: Swift would bind a copy of the C constant. */
const struct wl_interface *gestured_xdg_output_manager_interface(void) {
    return &zxdg_output_manager_v1_interface;
}
