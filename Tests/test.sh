#!/bin/sh
# The test command: installs the Debian packages the build needs when they are missing, then runs
# every unit, replay and daemon test. Usage: Tests/test.sh [extra swift test arguments]
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh systemd
exec swift test "$@"
