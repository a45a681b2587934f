#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <linux/uinput.h>

/* libevdev's uinput creation copies name, ids and bits but not `phys`; gestured marks its own
 * devices there, so the fd gets UI_SET_PHYS before libevdev creates the device on it. */
static inline int gestured_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
