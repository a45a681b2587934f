#!/bin/sh
# The test command: installs the Debian packages the build needs when they are missing, then runs
# every unit, replay and daemon test. Usage: Tests/test.sh [extra swift test arguments]
set -eu
cd "$(dirname "$0")/.."
need=""
# The focus backends' libraries (xcb, wayland-client, sd-bus), and the real desktops the
# per-application tests run: a headless sway with foot windows, Xvfb with openbox and xterms.
for p in libevdev-dev libudev-dev libyaml-dev pkg-config systemd \
         libxcb1-dev libwayland-dev libsystemd-dev dbus-daemon \
         sway foot xvfb openbox xterm x11-utils xdotool; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "test: installing$need"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
fi
exec swift test "$@"
