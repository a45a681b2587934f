// gestured focus: exports the focused window on the session bus for `gestured listen`.
// Name org.gestured.ShellFocus, object /org/gestured/ShellFocus:
//   Get() -> (s app_id, s wm_class, s title)   the focused window now ("", "", "" for none)
//   signal Changed(s app_id, s wm_class, s title)   on every focus or title change
// app_id is the Wayland app_id (GTK application id or the sandboxed app id); wm_class is the
// X11 WM_CLASS class (XWayland) or, for Wayland windows, what GNOME Shell reports as wm_class.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

const IFACE = `
<node>
  <interface name="org.gestured.ShellFocus">
    <method name="Get">
      <arg type="s" direction="out" name="app_id"/>
      <arg type="s" direction="out" name="wm_class"/>
      <arg type="s" direction="out" name="title"/>
    </method>
    <signal name="Changed">
      <arg type="s" name="app_id"/>
      <arg type="s" name="wm_class"/>
      <arg type="s" name="title"/>
    </signal>
  </interface>
</node>`;

function describe(w) {
    if (!w)
        return ['', '', ''];
    const s = v => (v === null || v === undefined) ? '' : String(v);
    return [s(w.get_gtk_application_id?.() || w.get_sandboxed_app_id?.()), s(w.get_wm_class()), s(w.get_title())];
}

export default class GesturedFocusExtension extends Extension {
    enable() {
        this._window = null;
        this._titleId = 0;
        this._dbus = Gio.DBusExportedObject.wrapJSObject(IFACE, {
            Get: () => describe(global.display.focus_window),
        });
        this._dbus.export(Gio.DBus.session, '/org/gestured/ShellFocus');
        this._ownerId = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.gestured.ShellFocus',
            Gio.BusNameOwnerFlags.NONE, null, null);
        this._focusId = global.display.connect('notify::focus-window', () => this._follow());
        this._follow();
    }

    _follow() {
        if (this._window && this._titleId)
            this._window.disconnect(this._titleId);
        this._window = global.display.focus_window;
        this._titleId = this._window ? this._window.connect('notify::title', () => this._emit()) : 0;
        this._emit();
    }

    _emit() {
        this._dbus.emit_signal('Changed', new GLib.Variant('(sss)', describe(this._window)));
    }

    disable() {
        if (this._window && this._titleId)
            this._window.disconnect(this._titleId);
        global.display.disconnect(this._focusId);
        Gio.bus_unown_name(this._ownerId);
        this._dbus.unexport();
        this._dbus = null;
        this._window = null;
    }
}
