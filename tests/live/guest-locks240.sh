#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Scenario locks240 of tests/live/run.sh: the lock tests of guest-locks.sh
# in a guest of 240 CPUs (QEMU 7.2's TCG maximum), one partition each.
exec /cpt/guest-locks.sh "$@"
