#!/bin/sh
# Builds the Debian package (dpkg-buildpackage -b -us -uc), checks it with lintian (no errors
# allowed; warnings are printed), and leaves it in build/deb/. Installs the build tools when
# missing. usage: scripts/build-deb.sh
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh scdoc debhelper dpkg-dev fakeroot lintian systemd
t0=$(date +%s)
dpkg-buildpackage -b -us -uc >build-deb.log 2>&1 || { tail -40 build-deb.log; echo "build-deb: dpkg-buildpackage failed (build-deb.log)"; exit 1; }
mkdir -p build/deb
version=$(dpkg-parsechangelog -S Version)
for f in ../gestured_${version}_*.deb ../gestured_${version}_*.buildinfo ../gestured_${version}_*.changes ../gestured-dbgsym_${version}_*.deb; do
  [ -e "$f" ] && mv "$f" build/deb/
done
rm -f build-deb.log
deb=$(ls build/deb/gestured_${version}_*.deb)
echo "build-deb: $deb ($(du -k "$deb" | cut -f1) KiB) in $(( $(date +%s) - t0 )) s"
dpkg-deb -c "$deb" | awk '{print "  " $6}'
out=$(lintian --fail-on error "$deb" 2>&1) && rc=0 || rc=$?
echo "lintian: ${out:-no tags}"
[ $rc = 0 ] || { echo "build-deb: lintian reports errors"; exit 1; }
