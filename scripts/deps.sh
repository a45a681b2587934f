#!/bin/sh
# Installs the Debian packages gestured needs to build (and any named as arguments) when they
# are missing, with sudo unless root. Used by the README's run command and by Tests/test.sh.
# usage: scripts/deps.sh [EXTRA-PACKAGE…]
set -eu
need=""
for p in libevdev-dev libudev-dev libyaml-dev libsystemd-dev libxcb1-dev libxcb-randr0-dev libwayland-dev pkg-config "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
[ -z "$need" ] && exit 0
command -v apt-get >/dev/null || { echo "deps: missing$need, and this is not a Debian system: install their equivalents" >&2; exit 1; }
echo "deps: installing$need" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "deps: missing$need; as root, run: apt-get install$need" >&2; exit 1; }
  SUDO=sudo
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >&2
