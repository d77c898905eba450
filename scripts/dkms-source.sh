#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: dkms-source.sh [--no-conf] DEST
#
# Assemble the module source DKMS builds from, as the kbinder-dkms package
# ships it in /usr/src/kbinder-<version>: dkms.conf, driver/ (Kbuild and
# the C sources), the UAPI headers the driver includes (include/uapi), and
# the two build helpers dkms.conf runs (scripts/dkms.mk,
# scripts/dkms-kernel-check.sh). Nothing else: no tests, no userspace.
# --no-conf leaves dkms.conf out (dh_dkms installs it itself).
set -euo pipefail

conf=1
[ "${1:-}" = --no-conf ] && { conf=0; shift; }
dest=${1:?usage: dkms-source.sh [--no-conf] DEST}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

[ -f driver/Kbuild ] || { echo "dkms-source: driver/Kbuild is missing" >&2; exit 1; }
mkdir -p "$dest/driver" "$dest/scripts"
# The sources, not what a build in driver/ left there (kbinder.mod.c).
install -m 0644 driver/Kbuild "$dest/driver/"
for f in driver/*.c driver/*.h; do
	case "$f" in *.mod.c) continue ;; esac
	install -m 0644 "$f" "$dest/driver/"
done
# Everything the driver includes from include/uapi, with its layout.
find include/uapi -name '*.h' -print0 | while IFS= read -r -d '' h; do
	install -D -m 0644 "$h" "$dest/$h"
done
install -m 0644 scripts/dkms.mk "$dest/scripts/"
install -m 0755 scripts/dkms-kernel-check.sh "$dest/scripts/"
[ $conf -eq 0 ] || install -m 0644 dkms.conf "$dest/dkms.conf"
