// libsystemd, loaded on demand: sd-login (who sits at the seat, which session a process is in)
// and sd-bus (logind's LockedHint; listen's KWin and GNOME focus backends). The headers of
// libsystemd-dev give the types and constants only; every function is called through a gsd_
// twin of the same signature (gsd_bus_open_system for sd_bus_open_system), which dlopen()s
// libsystemd.so.0 on the first call. The executables do not link libsystemd, so a daemon that
// never asks logind anything never maps it and the seven libraries it pulls in.
#ifndef GESTURED_CSYSTEMD_H
#define GESTURED_CSYSTEMD_H

#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

/// Loads libsystemd.so.0 and every function below, once per process (thread-safe). NULL when
/// loaded; otherwise why not ("libsystemd.so.0 cannot be loaded (…)" with dlerror's text, naming
/// the library or the missing symbol), and every gsd_ function then fails: int ones with
/// -ELIBACC, pointer ones with NULL.
const char *gsd_load(void);

// One line per libsystemd function used: return type, name without `sd_`, parameters,
// arguments, value when the library cannot be loaded. The same list makes the table and the
// twins in CSystemd.c.
#define GSD_FUNCTIONS(X) \
    X(int, bus_open_system, (sd_bus **ret), (ret), -ELIBACC) \
    X(int, bus_new, (sd_bus **ret), (ret), -ELIBACC) \
    X(int, bus_set_address, (sd_bus *bus, const char *address), (bus, address), -ELIBACC) \
    X(int, bus_set_bus_client, (sd_bus *bus, int b), (bus, b), -ELIBACC) \
    X(int, bus_start, (sd_bus *bus), (bus), -ELIBACC) \
    X(int, bus_get_fd, (sd_bus *bus), (bus), -ELIBACC) \
    X(int, bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique), -ELIBACC) \
    X(int, bus_is_open, (sd_bus *bus), (bus), -ELIBACC) \
    X(int, bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r), -ELIBACC) \
    X(int, bus_wait, (sd_bus *bus, uint64_t timeout_usec), (bus, timeout_usec), -ELIBACC) \
    X(int, bus_flush, (sd_bus *bus), (bus), -ELIBACC) \
    X(sd_bus *, bus_unref, (sd_bus *bus), (bus), NULL) \
    X(sd_bus *, bus_flush_close_unref, (sd_bus *bus), (bus), NULL) \
    X(int, bus_request_name, (sd_bus *bus, const char *name, uint64_t flags), (bus, name, flags), -ELIBACC) \
    X(int, bus_release_name, (sd_bus *bus, const char *name), (bus, name), -ELIBACC) \
    X(int, bus_add_object, (sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, \
                            void *userdata), (bus, slot, path, callback, userdata), -ELIBACC) \
    X(int, bus_match_signal, (sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path, \
                              const char *interface, const char *member, sd_bus_message_handler_t callback, void *userdata), \
      (bus, ret, sender, path, interface, member, callback, userdata), -ELIBACC) \
    X(sd_bus_slot *, bus_slot_unref, (sd_bus_slot *slot), (slot), NULL) \
    X(int, bus_call, (sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply), \
      (bus, m, usec, ret_error, reply), -ELIBACC) \
    X(int, bus_send, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie), -ELIBACC) \
    X(int, bus_get_property_trivial, (sd_bus *bus, const char *destination, const char *path, const char *interface, \
                                      const char *member, sd_bus_error *ret_error, char type, void *ret_ptr), \
      (bus, destination, path, interface, member, ret_error, type, ret_ptr), -ELIBACC) \
    X(int, bus_get_property_string, (sd_bus *bus, const char *destination, const char *path, const char *interface, \
                                     const char *member, sd_bus_error *ret_error, char **ret), \
      (bus, destination, path, interface, member, ret_error, ret), -ELIBACC) \
    X(int, bus_message_open_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), -ELIBACC) \
    X(int, bus_message_close_container, (sd_bus_message *m), (m), -ELIBACC) \
    X(int, bus_path_encode, (const char *prefix, const char *external_id, char **ret_path), \
      (prefix, external_id, ret_path), -ELIBACC) \
    X(int, bus_message_new_method_call, (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, \
                                         const char *interface, const char *member), \
      (bus, m, destination, path, interface, member), -ELIBACC) \
    X(int, bus_message_new_method_return, (sd_bus_message *call, sd_bus_message **m), (call, m), -ELIBACC) \
    X(int, bus_message_new_signal, (sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, \
                                    const char *member), (bus, m, path, interface, member), -ELIBACC) \
    X(sd_bus_message *, bus_message_unref, (sd_bus_message *m), (m), NULL) \
    X(int, bus_message_append_basic, (sd_bus_message *m, char type, const void *p), (m, type, p), -ELIBACC) \
    X(int, bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p), -ELIBACC) \
    X(int, bus_message_enter_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), -ELIBACC) \
    X(int, bus_message_exit_container, (sd_bus_message *m), (m), -ELIBACC) \
    X(int, bus_message_skip, (sd_bus_message *m, const char *types), (m, types), -ELIBACC) \
    X(int, bus_message_is_method_call, (sd_bus_message *m, const char *interface, const char *member), \
      (m, interface, member), -ELIBACC) \
    X(int, bus_message_get_type, (sd_bus_message *m, uint8_t *type), (m, type), -ELIBACC) \
    X(const char *, bus_message_get_path, (sd_bus_message *m), (m), NULL) \
    X(const char *, bus_message_get_member, (sd_bus_message *m), (m), NULL) \
    X(int, login_monitor_new, (const char *category, sd_login_monitor **ret), (category, ret), -ELIBACC) \
    X(int, login_monitor_get_fd, (sd_login_monitor *m), (m), -ELIBACC) \
    X(int, login_monitor_flush, (sd_login_monitor *m), (m), -ELIBACC) \
    X(sd_login_monitor *, login_monitor_unref, (sd_login_monitor *m), (m), NULL) \
    X(int, seat_get_active, (const char *seat, char **session, uid_t *uid), (seat, session, uid), -ELIBACC) \
    X(int, pid_get_session, (pid_t pid, char **session), (pid, session), -ELIBACC) \
    X(int, uid_get_display, (uid_t uid, char **session), (uid, session), -ELIBACC)

#define GSD_DECLARE(type, name, params, args, failure) type gsd_##name params;
GSD_FUNCTIONS(GSD_DECLARE)
#undef GSD_DECLARE

/// sd_bus_error_free (returns nothing, so not in the list); does nothing when not loaded.
void gsd_bus_error_free(sd_bus_error *e);

#endif
