#!/bin/sh
# The test command: installs the Debian packages the build needs when they are missing, then runs
# every unit, replay and daemon test. Usage: Tests/test.sh [extra swift test arguments]
set -eu
cd "$(dirname "$0")/.."
# The real desktops the per-application tests run: a headless sway with foot windows, Xvfb with
# openbox and xterms; sway's Xwayland (whose RandR turns with sway's output; xhost lets the test
# in) and xrandr for the X11 orientation tests; a headless mutter turned through DisplayConfig
# with gdbus (libglib2.0-bin) for GNOME's, and GNOME's touchscreen mapping set with gsettings
# (libglib2.0-bin, gsettings-desktop-schemas) through dconf-service; a headless KWin turned with
# kscreen-doctor (libkf5screen-bin), which reaches KWin through Qt's Wayland platform (qtwayland5)
# for KDE's (about 48 MB to download); dbus-daemon for the session-bus backends; headless
# Chromium for the replay page (ReplayPageBrowserTests).
scripts/deps.sh systemd dbus-daemon sway foot xvfb openbox xterm x11-utils xdotool xwayland x11-xserver-utils \
  mutter libglib2.0-bin gsettings-desktop-schemas dconf-service kwin-wayland libkf5screen-bin qtwayland5 chromium
exec swift test "$@"
