#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: kernel-version.sh [FLAVOUR [SERIES]]
#   FLAVOUR: amd64 (default), cloud-amd64, rt-amd64
#   SERIES:  6.1 (default) or 6.12, the kernel series kbinder supports
#
# Print the version string (6.1.0-57-amd64, 6.12.118+deb12-cloud-amd64) of
# the Debian kernel image of that series and flavour that apt installed.
# This is the kernel kbinder is built for and booted in QEMU; it is
# deliberately NOT `uname -r`, which names the host's kernel. Prints
# nothing if none is installed.
#
# Debian 12 installs 6.1 through linux-image-FLAVOUR and 6.12 (from its
# security archive) through linux-image-6.12-FLAVOUR; on Debian 13,
# linux-image-FLAVOUR is 6.12. The metapackages are asked first, and a
# version they name counts only if it is of SERIES and its image is there;
# else the newest installed kernel of the series with image and headers.
set -eu

flavour=${1:-amd64}
series=${2:-6.1}
case "$flavour" in
*[!a-z0-9-]* | "") echo "kernel-version.sh: bad flavour '$flavour'" >&2; exit 2 ;;
esac
case "$series" in
6.1 | 6.12) ;;
*) echo "kernel-version.sh: unsupported series '$series' (6.1 or 6.12)" >&2; exit 2 ;;
esac

# A Debian version of this series and flavour, and nothing else:
# 6.1.0-57-amd64, 6.12.118+deb12-amd64; not 6.1.0-57-cloud-amd64 for
# amd64, not 6.10.x for 6.1.
pattern="^${series//./\\.}\\.[0-9]+(-[0-9]+|\\+deb[0-9]+(u[0-9]+)?)-${flavour}\$"

ver=""
for meta in "linux-image-$flavour" "linux-image-$series-$flavour"; do
	v=$(dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null |
		sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p' | head -n 1) || true
	v=${v%-unsigned}
	if [[ "$v" =~ $pattern ]] && [ -e "/boot/vmlinuz-$v" ]; then
		ver=$v
		break
	fi
done

if [ -z "$ver" ]; then
	for dir in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V); do
		v=$(basename "$(dirname "$dir")")
		[[ "$v" =~ $pattern ]] || continue
		[ -e "/boot/vmlinuz-$v" ] && ver=$v
	done
fi
[ -n "$ver" ] && echo "$ver"
exit 0
