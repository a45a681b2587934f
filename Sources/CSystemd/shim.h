// libsystemd (Debian libsystemd-dev): sd-login for the seat's active session, sd-bus for logind's
// LockedHint. Used only by Sources/GestureDaemon/Actions/Seat*.swift.
#include <systemd/sd-login.h>
#include <systemd/sd-bus.h>
